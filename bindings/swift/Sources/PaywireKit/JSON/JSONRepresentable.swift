import Foundation

/// A value that reads from and writes to ``JSONValue``: the generated models, their enums, and
/// the JSON kinds they are made of. Reading is strict about shapes the schema fixes and keeps
/// what it does not know, so a value written back gives what the library wrote.
public protocol JSONRepresentable: Sendable {
    /// Reads the value; throws ``JSONShapeError`` naming the path of the first member that does
    /// not fit.
    init(json: JSONValue) throws
    /// The value as JSON.
    var jsonValue: JSONValue { get }
}

/// A value whose JSON did not have the shape the schema gives it.
public struct JSONShapeError: Error, Sendable, CustomStringConvertible {
    /// Where: member names and array indices from the outside in.
    public var path: [String]
    /// What was wrong.
    public var message: String

    public init(path: [String], message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path.joined(separator: ".")): \(message)" }

    /// This error seen from one level further out.
    func inside(_ component: String) -> JSONShapeError { JSONShapeError(path: [component] + path, message: message) }

    static func expected(_ what: String, got value: JSONValue) -> JSONShapeError {
        JSONShapeError(path: [], message: "expected \(what), got \(value.kindName)")
    }
}

/// A generated model: JSON both ways, and Codable through it (so it also sits in Codable types).
public protocol PaywireModel: JSONRepresentable, Codable, Hashable {}

extension PaywireModel {
    public init(from decoder: any Decoder) throws {
        do {
            try self.init(json: JSONValue(from: decoder))
        } catch let error as JSONShapeError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws { try jsonValue.encode(to: encoder) }
}

/// A generated enum of the schema's strings: every listed value a case, and `unknown(String)`
/// for a value a newer library sends, so reading never fails on one. Two values are equal when
/// their strings are (`.unknown("x")` equals the case listed as `"x"`).
public protocol PaywireEnum: PaywireModel, RawRepresentable, CustomStringConvertible where RawValue == String {
    init(rawValue: String)
}

extension PaywireEnum {
    public init(json: JSONValue) throws {
        guard case .string(let text) = json else { throw JSONShapeError.expected("a string", got: json) }
        self.init(rawValue: text)
    }

    public var jsonValue: JSONValue { .string(rawValue) }
    public var description: String { rawValue }
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

extension JSONValue: JSONRepresentable {
    public init(json: JSONValue) { self = json }
    public var jsonValue: JSONValue { self }
}

extension String: JSONRepresentable {
    public init(json: JSONValue) throws {
        guard case .string(let text) = json else { throw JSONShapeError.expected("a string", got: json) }
        self = text
    }

    public var jsonValue: JSONValue { .string(self) }
}

extension Bool: JSONRepresentable {
    public init(json: JSONValue) throws {
        guard case .bool(let flag) = json else { throw JSONShapeError.expected("a boolean", got: json) }
        self = flag
    }

    public var jsonValue: JSONValue { .bool(self) }
}

extension Int: JSONRepresentable {
    public init(json: JSONValue) throws {
        guard case .number(let number) = json else { throw JSONShapeError.expected("an integer", got: json) }
        guard let whole = number.int else { throw JSONShapeError(path: [], message: "\(number.text) is not an integer") }
        self = whole
    }

    public var jsonValue: JSONValue { .number(JSONNumber(self)) }
}

/// Prices and other schema numbers: read from the number's text, never through `Double`.
extension Decimal: JSONRepresentable {
    public init(json: JSONValue) throws {
        guard case .number(let number) = json else { throw JSONShapeError.expected("a number", got: json) }
        guard let value = number.decimal else { throw JSONShapeError(path: [], message: "\(number.text) is out of Decimal's range") }
        self = value
    }

    public var jsonValue: JSONValue { .number(JSONNumber(self)) }
}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    public init(json: JSONValue) throws {
        guard case .array(let elements) = json else { throw JSONShapeError.expected("an array", got: json) }
        self = []
        reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            do {
                append(try Element(json: element))
            } catch let error as JSONShapeError {
                throw error.inside("[\(position)]")
            }
        }
    }

    public var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}

extension Dictionary: JSONRepresentable where Key == String, Value: JSONRepresentable {
    public init(json: JSONValue) throws {
        guard case .object(let members) = json else { throw JSONShapeError.expected("an object", got: json) }
        self = [:]
        for (key, member) in members {
            do {
                self[key] = try Value(json: member)
            } catch let error as JSONShapeError {
                throw error.inside(key)
            }
        }
    }

    public var jsonValue: JSONValue { .object(mapValues(\.jsonValue)) }
}

/// A member the schema lets be null: JSON null is nil.
extension Optional: JSONRepresentable where Wrapped: JSONRepresentable {
    public init(json: JSONValue) throws {
        self = json == .null ? nil : try Wrapped(json: json)
    }

    public var jsonValue: JSONValue { map(\.jsonValue) ?? .null }
}

/// A number the schema lets be a string too (a store's `price`): read from either and written
/// back as it was read (`"149.00"` stays `"149.00"`); one made from a `Decimal` is written as a
/// string, which keeps the amount exact in any JSON tool.
public struct DecimalText: JSONRepresentable, Hashable {
    /// The amount as JSON: a string or a number, as written.
    public let jsonValue: JSONValue
    /// The amount.
    public let value: Decimal

    public init(_ value: Decimal) {
        self.value = value
        jsonValue = .string(value.description)
    }

    /// An amount from its text (`"9.99"`); nil when the text is not a decimal number.
    public init?(_ text: String) {
        guard JSONNumber(text: text) != nil, let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            return nil
        }
        self.value = value
        jsonValue = .string(text)
    }

    public init(json: JSONValue) throws {
        switch json {
        case .number(let number):
            guard let value = number.decimal else { throw JSONShapeError(path: [], message: "\(number.text) is out of range") }
            self.value = value
            jsonValue = json
        case .string(let text):
            guard let amount = DecimalText(text) else { throw JSONShapeError(path: [], message: "'\(text)' is not a decimal amount") }
            self = amount
        default:
            throw JSONShapeError.expected("a decimal amount", got: json)
        }
    }
}
