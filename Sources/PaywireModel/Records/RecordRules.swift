import PaywireWire

/// The rules every record that crosses between the device and the backend follows, member by
/// member. The device checks a record with them before it keeps it, and the server checks it
/// with them again when it comes: a record the device accepts is one the server keeps.
/// A broken rule is a `wrong_param` naming the member's path in the record.
public enum RecordRules {
    /// 2^53 - 1: the largest integer every JSON reader holds exactly.
    public static let maxSafeInteger: WideInt = 9_007_199_254_740_991
    /// The longest identifier a record carries (profile, transaction, product ids), in
    /// characters: Unicode scalars, what the spec's `maxLength` counts, so that the spec, the
    /// device and the server draw one line.
    public static let maxIdentifierLength = 256

    /// A required string: present, a string, not empty (unless `allowEmpty`), at most
    /// `maxLength` characters, and without U+0000 (PostgreSQL's text cannot hold it).
    static func text(_ fields: Fields, _ key: String, allowEmpty: Bool = false,
                     maxLength: Int = maxIdentifierLength) throws(WireError) -> String {
        let value = try fields.string(key)
        try check(value, fields.fieldPath(key), allowEmpty: allowEmpty, maxLength: maxLength)
        return value
    }

    /// An optional string under the same rules; absent or null reads as nil.
    static func optionalText(_ fields: Fields, _ key: String, allowEmpty: Bool = false,
                             maxLength: Int = maxIdentifierLength) throws(WireError) -> String? {
        guard let value = try fields.optionalString(key) else { return nil }
        try check(value, fields.fieldPath(key), allowEmpty: allowEmpty, maxLength: maxLength)
        return value
    }

    /// The rule `text` applies, for a value the device holds typed. The path is made only for
    /// a refusal: a record's check is on the path of every call that keeps one.
    public static func check(_ value: String, _ path: @autoclosure () -> String, allowEmpty: Bool = false,
                             maxLength: Int = maxIdentifierLength) throws(WireError) {
        let utf8 = value.utf8
        let count = utf8.count
        if !allowEmpty && count == 0 { throw WireError.wrongParam(path(), "must not be empty") }
        // A character is 1 to 4 bytes of UTF-8: only a value longer in bytes can be too long.
        if count > maxLength && value.unicodeScalars.count > maxLength {
            throw WireError.wrongParam(path(), "must be at most \(maxLength) characters")
        }
        let holdsNUL = utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? utf8.contains(0)
        if holdsNUL { throw WireError.wrongParam(path(), "must not hold U+0000") }
    }

    /// A whole number of milliseconds since the epoch (or a count) from 0 to 2^53 - 1.
    public static func checkCount(_ value: WideInt, _ path: @autoclosure () -> String, from lowest: WideInt = 0) throws(WireError) {
        guard (lowest...maxSafeInteger).contains(value) else {
            throw WireError.wrongParam(path(), "must be a whole number from \(lowest) to \(maxSafeInteger)")
        }
    }

    static func count(_ fields: Fields, _ key: String, from lowest: WideInt = 0) throws(WireError) -> WideInt {
        let value = try fields.wide(key)
        try checkCount(value, fields.fieldPath(key), from: lowest)
        return value
    }

    /// An event id: 8-4-4-4-12 hex digits (a UUID; the device makes version 7).
    public static func checkEventId(_ value: String, _ path: String) throws(WireError) {
        guard isUUID(value) else { throw WireError.wrongParam(path, "must be a UUID (8-4-4-4-12 hex digits)") }
    }

    static func eventId(_ fields: Fields, _ key: String = "event_id") throws(WireError) -> String {
        let value = try fields.string(key)
        try checkEventId(value, fields.fieldPath(key))
        return value
    }

    /// Whether `value` holds a U+0000 anywhere, in a string or a member's name.
    public static func holdsNUL(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): return text.utf8.contains(0)
        case .array(let items): return items.contains { holdsNUL($0) }
        case .object(let object): return object.members.contains { $0.key.utf8.contains(0) || holdsNUL($0.value) }
        default: return false
        }
    }

    /// Refuses a value (params, attributes) holding U+0000, naming where.
    static func checkNoNUL(_ value: JSONValue, _ path: String) throws(WireError) {
        guard holdsNUL(value) else { return }
        throw WireError.wrongParam(path, "must not hold U+0000 in any string")
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hex digits.
    public static func isUUID(_ text: String) -> Bool {
        var index = 0
        for byte in text.utf8 {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte) else { return false }
            }
            index += 1
        }
        return index == 36
    }

    /// Lower-case words joined by single underscores (`paywall_shown`).
    public static func isSnakeCase(_ text: String) -> Bool {
        var previous: UInt8?
        for byte in text.utf8 {
            let underscore = byte == UInt8(ascii: "_")
            if previous == nil && !(97...122).contains(byte) { return false }
            guard underscore || (97...122).contains(byte) || (48...57).contains(byte) else { return false }
            if underscore && previous == UInt8(ascii: "_") { return false }
            previous = byte
        }
        return previous != nil && previous != UInt8(ascii: "_")
    }

    /// A member the record may leave out is left out, never null: null is no value the contract
    /// gives these members, and a writer that sends one is told so.
    static func refuseNulls(_ fields: Fields, _ keys: [String]) throws(WireError) {
        for key in keys where fields.object[key] == .null {
            throw WireError.wrongParam(fields.fieldPath(key), "must be left out rather than null")
        }
    }

    /// A record's document: a JSON object, within the wire's depth and size limits.
    static func document(_ bytes: [UInt8], what: String) throws(WireError) -> Fields {
        try document(parsed: try? JSONParser.parse(bytes), what: what)
    }

    /// The same, of a body already parsed (nil: it was no JSON), so a reader that parsed it
    /// once (the server, to find the profiles it names) does not parse it again.
    static func document(parsed: JSONValue?, what: String) throws(WireError) -> Fields {
        guard case .object(let object)? = parsed else {
            throw WireError(.decodingFailed, "\(what) must be a JSON object")
        }
        return Fields(object)
    }
}
