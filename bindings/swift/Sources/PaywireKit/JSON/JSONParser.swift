/// A strict RFC 8259 reader into ``JSONValue``: numbers keep their text, strings must be valid
/// UTF-8 (refused, never repaired), depth is bounded. Internal: ``JSONValue/init(parsing:)``
/// is the way in.
struct JSONParser {
    /// Deeper than the library ever writes, shallow enough that recursion cannot exhaust a stack.
    static let maxDepth = 512
    /// The bytes a number may be made of; JSONNumber.isValid then checks their order.
    private static let numberBytes = Set("0123456789-+.eE".utf8)

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.failure("text after the JSON value") }
        return value
    }

    private func failure(_ message: String) -> JSONShapeError {
        JSONShapeError(path: [], message: "invalid JSON at byte \(index): \(message)")
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw failure("nested deeper than \(JSONParser.maxDepth)") }
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw failure("expected \(word)")
        }
        index += expected.count
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipSpace()
            members[key] = try value(depth: depth + 1)
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
            index += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
            index += 1
            return .array(elements)
        }
    }

    private mutating func number() throws -> JSONNumber {
        let start = index
        while index < bytes.count, JSONParser.numberBytes.contains(bytes[index]) { index += 1 }
        let text = Array(bytes[start..<index])
        guard JSONNumber.isValid(text) else {
            index = start
            throw failure("not a JSON value")
        }
        return JSONNumber(validatedText: String(decoding: text, as: UTF8.self))
    }

    private mutating func string() throws -> String {
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
            case 0x00..<0x20:
                throw failure("a control character inside a string")
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws {
        guard index < bytes.count else { throw failure("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw failure("a lone surrogate")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw failure("a lone surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("not a Unicode scalar") }
            utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw failure("an unknown escape")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
