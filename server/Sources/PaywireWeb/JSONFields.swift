import PaywireWire

/// Tolerant reads of a section's fields. The page must never break on a configuration the core
/// did not check (a preview of a draft, a newer builder): a field of the wrong type reads as
/// absent, and the section is drawn without it.
extension JSONObject {
    /// A non-empty string, else nil.
    func text(_ key: String) -> String? {
        guard case .string(let value)? = self[key], !value.isEmpty else { return nil }
        return value
    }

    /// A finite number, else nil.
    func number(_ key: String) -> Double? {
        guard case .number(let value)? = self[key] else { return nil }
        return value.doubleValue
    }

    /// A whole number, else nil.
    func integer(_ key: String) -> Int? {
        guard case .number(let value)? = self[key] else { return nil }
        return value.intValue
    }

    /// A boolean, else false: every flag the builder has is off unless said otherwise.
    func flag(_ key: String) -> Bool {
        guard case .bool(let value)? = self[key] else { return false }
        return value
    }

    /// The array's elements, else empty.
    func list(_ key: String) -> [JSONValue] {
        guard case .array(let values)? = self[key] else { return [] }
        return values
    }

    /// The array's objects, skipping any element that is not one.
    func objects(_ key: String) -> [JSONObject] {
        list(key).compactMap { value in
            guard case .object(let object) = value else { return nil }
            return object
        }
    }

    /// The array's non-empty strings, skipping any other element.
    func texts(_ key: String) -> [String] {
        list(key).compactMap { value in
            guard case .string(let text) = value, !text.isEmpty else { return nil }
            return text
        }
    }
}
