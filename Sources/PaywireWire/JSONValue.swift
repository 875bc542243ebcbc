/// A JSON number kept as the exact text it was written with.
///
/// Money must never pass through a binary float that loses cents, so the wire keeps
/// `amount` as given; conversions happen only where a rule needs a value.
public struct JSONNumber: Equatable, Hashable, Sendable {
    /// The number's JSON text, already checked against the JSON grammar.
    public let text: String

    package init(validatedText: String) { self.text = validatedText }

    /// A finite double as a number (Swift's shortest text that reads back the same double);
    /// nil for NaN and the infinities, which JSON cannot write.
    public init?(exactly value: Double) {
        guard value.isFinite else { return nil }
        self.text = "\(value)"
    }

    /// Builds a number from an integer.
    public init(_ value: Int) { self.text = String(value) }

    /// Builds a number from a 64-bit integer (a time, an amount, a size on a 32-bit target).
    public init(_ value: Int64) { self.text = String(value) }

    /// The value as a `Double`, or nil when it does not fit (`1e999`).
    public var doubleValue: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The value as a 64-bit integer when it is a whole number that fits exactly (`3`, `3.0`,
    /// `3e2`); nil otherwise, never a trap. Digits are read as `Int64` whatever `Int`'s width,
    /// so a time in milliseconds or an amount in minor units reads the same on a 32-bit target.
    public var int64Value: Int64? {
        if let exact = Int64(text) { return exact }
        guard let value = doubleValue, value.rounded() == value,
              value >= -9.0e15, value <= 9.0e15 else { return nil }
        return Int64(exactly: value)
    }

    /// The value as a `WideInt` (times, amounts, counts, sizes): `int64Value`, 64 bits on every target.
    public var wideValue: WideInt? { int64Value.flatMap { WideInt(exactly: $0) } }

    /// The value as an `Int` when it is a whole number that fits exactly; nil when it does not
    /// fit `Int` (above 2^31 on a 32-bit target), never a trap.
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }
}

/// An ordered JSON object: key order is kept so output is stable and readable.
public struct JSONObject: Equatable, Sendable {
    /// The members in the order they were written.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// Creates an object from ordered members.
    public init(_ members: [(key: String, value: JSONValue)] = []) { self.members = members }

    /// The value of the first member named `key`, if any.
    public subscript(key: String) -> JSONValue? {
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The member names, in order.
    public var keys: [String] { members.map { $0.key } }

    /// Appends or replaces a member.
    public mutating func set(_ key: String, _ value: JSONValue) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A parsed JSON document. Used for inputs (params, config, bundles); outputs are written
/// from typed models by `JSONWriter`.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The wire name of this value's type, used in error messages (`expected string, got number`).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
