import Foundation

/// A JSON value as the library wrote it: numbers keep their text (``JSONNumber``), so an amount
/// such as `9.99` is never turned into a binary float on its way through.
///
/// The members the wire schema leaves open (a remote config's `data_map`, a host request's
/// `payload`, members a newer library added) reach Swift as this type. It is a value type and
/// `Sendable`; build one with literals (`["placement_id": "onboarding", "retry": true]`).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text (UTF-8). Throws ``JSONShapeError`` for text that is not one JSON value.
    public init(parsing text: String) throws {
        self = try JSONParser.parse(Array(text.utf8))
    }

    /// Parses JSON bytes (UTF-8); invalid UTF-8 inside a string is refused, never repaired.
    public init<Bytes: Collection<UInt8>>(parsingBytes bytes: Bytes) throws {
        self = try JSONParser.parse(Array(bytes))
    }

    /// Compact JSON text: object members sorted by key, numbers as their text, no spaces.
    public var jsonText: String { JSONWriter.text(of: self) }

    /// The member `key` of an object; nil for another kind of value or a missing member.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The Boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The number, when this is one.
    public var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The name of this kind of value, for error messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object's members. The wire's free-form objects (`details`, `payload`, `data_map`).
public typealias JSONObject = [String: JSONValue]

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// A float literal goes through its shortest decimal text (`0.1` stays `0.1`).
    public init(floatLiteral value: Double) { self = .number(JSONNumber(floatLiteral: value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Later duplicates replace earlier ones, as a JSON reader keeps the last.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { jsonText }
}

/// Codable, so a JSONValue sits inside any Codable type. This package's own reader and writer
/// keep every number's text; another coder (JSONDecoder) passes numbers through `Decimal`.
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? single.decode(Decimal.self) {
            self = .number(JSONNumber(number))
        } else if let text = try? single.decode(String.self) {
            self = .string(text)
        } else if let elements = try? single.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            self = .object(try single.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let flag): try single.encode(flag)
        case .number(let number):
            if let decimal = number.decimal { try single.encode(decimal) } else { try single.encode(number.text) }
        case .string(let text): try single.encode(text)
        case .array(let elements): try single.encode(elements)
        case .object(let members): try single.encode(members)
        }
    }
}
