import PaywireWire

/// Short ways to read and build the core's ordered JSON values, which keep number text exact
/// (prices stay the decimals they were written as).
extension JSONValue {
    package static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    /// A finite double as a number; null when not finite.
    package static func double(_ value: Double) -> JSONValue { JSONNumber(exactly: value).map { .number($0) } ?? .null }

    package static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members.map { (key: $0.0, value: $0.1) }))
    }

    package static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }

    package subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    package var asString: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// A whole number written without fraction or exponent (`17`, not `17.0`).
    package var asInt: Int? {
        guard case .number(let number) = self else { return nil }
        return Int(number.text)
    }

    package var asBool: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    package var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    package var asArray: [JSONValue]? {
        guard case .array(let items) = self else { return nil }
        return items
    }

    /// Compact JSON text.
    package var encoded: [UInt8] { JSONWriter.encode(self) }
}
