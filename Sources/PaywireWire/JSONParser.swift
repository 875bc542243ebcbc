/// Why a JSON text was refused, with the byte offset where reading stopped.
public struct JSONParseError: Error, Equatable, Sendable {
    /// Byte offset into the input.
    public let offset: Int
    /// A sentence for people; never compared by tests.
    public let reason: String
}

/// Limits applied to every JSON text that crosses the boundary.
public struct JSONLimits: Sendable {
    /// Deepest nesting of arrays and objects accepted; deeper input is refused, not recursed into.
    public var maxDepth: Int
    /// Largest input, in bytes.
    public var maxBytes: Int

    /// Defaults for params and config: deep enough for any paywall, shallow enough for any stack.
    public static let standard = JSONLimits(maxDepth: 128, maxBytes: 64 << 20)

    /// Creates limits.
    public init(maxDepth: Int, maxBytes: Int) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }
}

/// A strict RFC 8259 parser: no trailing commas, no comments, no lone surrogates, no control
/// characters in strings. Input must already be valid UTF-8 (the boundary refuses anything else).
package struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: JSONLimits
    package private(set) var position = 0
    private var depth = 0

    package init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Parses a complete document from UTF-8 bytes.
    package static func parse(_ input: [UInt8], limits: JSONLimits = .standard) throws(JSONParseError) -> JSONValue {
        guard input.count <= limits.maxBytes else {
            throw JSONParseError(offset: 0, reason: "input is \(input.count) bytes, over the limit of \(limits.maxBytes)")
        }
        let result: Result<JSONValue, JSONParseError> = input.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: limits)
            do throws(JSONParseError) {
                let value = try parser.parseDocument()
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a complete document from a string.
    package static func parse(_ text: String, limits: JSONLimits = .standard) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }

    package mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseValue()
        try expectEnd()
        return value
    }

    package mutating func expectEnd() throws(JSONParseError) {
        skipWhitespace()
        guard position == bytes.count else { throw error("unexpected data after the JSON value") }
    }

    // MARK: values

    package mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard let byte = peek() else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        default: return .number(try parseNumber())
        }
    }

    /// Checks the next value's syntax without building it and returns its byte range.
    /// Lets a bundle index its placements eagerly and parse them lazily.
    package mutating func skipValue() throws(JSONParseError) -> Range<Int> {
        skipWhitespace()
        let start = position
        guard let byte = peek() else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            try enter()
            position += 1
            skipWhitespace()
            if peek() == close {
                position += 1
            } else {
                while true {
                    if close == UInt8(ascii: "}") {
                        skipWhitespace()
                        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key") }
                        try skipString()
                        skipWhitespace()
                        try expect(UInt8(ascii: ":"))
                    }
                    _ = try skipValue()
                    skipWhitespace()
                    if peek() == UInt8(ascii: ",") { position += 1; continue }
                    try expect(close)
                    break
                }
            }
            depth -= 1
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        default: _ = try scanNumber()
        }
        return start..<position
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONObject {
        try enter()
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return JSONObject(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            let value = try parseValue()
            members.append((key, value))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { position += 1; continue }
            try expect(UInt8(ascii: "}"))
            break
        }
        depth -= 1
        return JSONObject(members)
    }

    private mutating func parseArray() throws(JSONParseError) -> [JSONValue] {
        try enter()
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return elements
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { position += 1; continue }
            try expect(UInt8(ascii: "]"))
            break
        }
        depth -= 1
        return elements
    }

    // MARK: strings

    package mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes, so the bytes are the string.
        while let byte = peek() {
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in string") }
            position += 1
        }
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while true {
            guard let byte = peek() else { throw error("unterminated string") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { throw error("unterminated escape") }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    scalars.append(contentsOf: String(Character(scalar)).utf8)
                default: throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in string") }
                scalars.append(byte)
            }
        }
    }

    private mutating func skipString() throws(JSONParseError) {
        position += 1
        skipPlainStringBytes()
        while let byte = peek() {
            position += 1
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { throw error("unterminated escape") }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"): _ = try parseUnicodeEscape()
                default: throw error("invalid escape")
                }
            default:
                if byte < 0x20 {
                    position -= 1  // the offset of the control character itself, as parsing reports it
                    throw error("control character in string")
                }
            }
        }
        throw error("unterminated string")
    }

    /// Skips, eight bytes at a time, the bytes of a string that need no attention: stops at
    /// the first word holding a quote, a backslash or a control character (the byte loop then
    /// judges it). Indexing a megabyte bundle is mostly this.
    private mutating func skipPlainStringBytes() {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while position + 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // A byte is flagged when it is zero (after the xor) or below 0x20.
            let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if special & highs != 0 { return }
            position += 8
        }
    }

    /// Reads the four hex digits after `\u` (and a low surrogate when the first is high).
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let first = try readHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard peek() == UInt8(ascii: "\\"), peek(offset: 1) == UInt8(ascii: "u") else {
                throw error("lone high surrogate")
            }
            position += 2
            let second = try readHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw error("invalid low surrogate") }
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(combined) else { throw error("invalid code point") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw error("lone low surrogate") }
        return scalar
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw error("truncated \\u escape") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let range = try scanNumber()
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        return JSONNumber(validatedText: text)
    }

    /// Checks the JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func scanNumber() throws(JSONParseError) -> Range<Int> {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let lead = peek(), isDigit(lead) else { throw error("invalid value") }
        position += 1
        if lead != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let digit = peek(), isDigit(digit) else { throw error("digit expected after decimal point") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), isDigit(digit) else { throw error("digit expected in exponent") }
            skipDigits()
        }
        return start..<position
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: helpers

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        guard depth <= limits.maxDepth else { throw error("nesting deeper than \(limits.maxDepth)") }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("invalid literal") }
        let pointer = literal.utf8Start
        for index in 0..<count where bytes[position + index] != pointer[index] {
            throw error("invalid literal")
        }
        position += count
    }

    private mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        guard peek() == byte else {
            throw error(peek() == nil ? "unexpected end of input" : "expected '\(Character(Unicode.Scalar(byte)))'")
        }
        position += 1
    }

    package mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    package func peek(offset: Int = 0) -> UInt8? {
        let index = position + offset
        return index < bytes.count ? bytes[index] : nil
    }

    private func error(_ reason: String) -> JSONParseError { JSONParseError(offset: position, reason: reason) }
}

extension JSONParser {
    /// Walks an object's members, handing each key to `visit`, which must consume the value
    /// (`parseValue` or `skipValue`). Throws when the next value is not an object.
    package mutating func scanObject(_ visit: (String, inout JSONParser) throws(JSONParseError) -> Void) throws(JSONParseError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else {
            throw JSONParseError(offset: position, reason: "expected an object")
        }
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw JSONParseError(offset: position, reason: "expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw JSONParseError(offset: position, reason: "expected ':'") }
            position += 1
            try visit(key, &self)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { position += 1; continue }
            guard peek() == UInt8(ascii: "}") else { throw JSONParseError(offset: position, reason: "expected '}'") }
            position += 1
            return
        }
    }

    /// Walks an array's elements, handing each index to `visit`, which must consume the element
    /// (`parseValue`, `skipValue` or a scan). Throws when the next value is not an array.
    package mutating func scanArray(_ visit: (Int, inout JSONParser) throws(JSONParseError) -> Void) throws(JSONParseError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "[") else {
            throw JSONParseError(offset: position, reason: "expected an array")
        }
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return
        }
        var index = 0
        while true {
            try visit(index, &self)
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { position += 1; continue }
            guard peek() == UInt8(ascii: "]") else { throw JSONParseError(offset: position, reason: "expected ']'") }
            position += 1
            return
        }
    }
}
