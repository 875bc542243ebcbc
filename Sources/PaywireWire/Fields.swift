/// Typed, path-aware access to a JSON object's members.
///
/// Every read failure is a `wrong_param` error whose `details.field` names the offending member
/// by its dotted path (`fallback.path`, `paywall.products[2].vendor_product_id`).
package struct Fields {
    package let object: JSONObject
    /// The dotted path of this object, empty at the top level.
    package let path: String

    package init(_ object: JSONObject, path: String = "") {
        self.object = object
        self.path = path
    }

    /// Requires `value` to be an object.
    package init(_ value: JSONValue?, path: String) throws(WireError) {
        guard case .object(let object)? = value else {
            throw WireError.wrongParam(path, "expected an object, got \(value?.typeName ?? "nothing")")
        }
        self.init(object, path: path)
    }

    package func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The member, treating `null` like absence.
    package func optional(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    package func string(_ key: String) throws(WireError) -> String {
        guard let value = try optionalString(key) else { throw WireError.wrongParam(fieldPath(key), "is required") }
        return value
    }

    package func optionalString(_ key: String) throws(WireError) -> String? {
        guard let value = optional(key) else { return nil }
        guard case .string(let text) = value else {
            throw WireError.wrongParam(fieldPath(key), "expected a string, got \(value.typeName)")
        }
        return text
    }

    /// A required string that must not be empty.
    package func identifier(_ key: String) throws(WireError) -> String {
        let text = try string(key)
        guard !text.isEmpty else { throw WireError.wrongParam(fieldPath(key), "must not be empty") }
        return text
    }

    package func optionalBool(_ key: String) throws(WireError) -> Bool? {
        guard let value = optional(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw WireError.wrongParam(fieldPath(key), "expected a boolean, got \(value.typeName)")
        }
        return flag
    }

    package func optionalNumber(_ key: String) throws(WireError) -> JSONNumber? {
        guard let value = optional(key) else { return nil }
        guard case .number(let number) = value else {
            throw WireError.wrongParam(fieldPath(key), "expected a number, got \(value.typeName)")
        }
        return number
    }

    package func int(_ key: String, in range: ClosedRange<Int>? = nil) throws(WireError) -> Int {
        guard let value = try optionalInt(key, in: range) else { throw WireError.wrongParam(fieldPath(key), "is required") }
        return value
    }

    package func optionalInt(_ key: String, in range: ClosedRange<Int>? = nil) throws(WireError) -> Int? {
        guard let number = try optionalNumber(key) else { return nil }
        guard let value = number.intValue else {
            throw WireError.wrongParam(fieldPath(key), "expected a whole number, got \(number.text)")
        }
        if let range, !range.contains(value) {
            throw WireError.wrongParam(fieldPath(key), "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    /// A required `WideInt` member: a time in milliseconds, an amount, a count or a size.
    package func wide(_ key: String, in range: ClosedRange<WideInt>? = nil) throws(WireError) -> WideInt {
        guard let value = try optionalWide(key, in: range) else { throw WireError.wrongParam(fieldPath(key), "is required") }
        return value
    }

    /// An optional `WideInt` member, read as 64 bits on every target.
    package func optionalWide(_ key: String, in range: ClosedRange<WideInt>? = nil) throws(WireError) -> WideInt? {
        guard let number = try optionalNumber(key) else { return nil }
        guard let value = number.wideValue else {
            throw WireError.wrongParam(fieldPath(key), "expected a whole number, got \(number.text)")
        }
        if let range, !range.contains(value) {
            throw WireError.wrongParam(fieldPath(key), "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    /// A finite, non-negative number of seconds.
    package func optionalSeconds(_ key: String) throws(WireError) -> Double? {
        guard let number = try optionalNumber(key) else { return nil }
        guard let value = number.doubleValue, value >= 0 else {
            throw WireError.wrongParam(fieldPath(key), "expected a finite number of seconds >= 0, got \(number.text)")
        }
        return value
    }

    package func object(_ key: String) throws(WireError) -> Fields {
        guard object[key] != nil, object[key] != .null else { throw WireError.wrongParam(fieldPath(key), "is required") }
        return try Fields(object[key], path: fieldPath(key))
    }

    package func optionalObject(_ key: String) throws(WireError) -> Fields? {
        guard optional(key) != nil else { return nil }
        return try Fields(object[key], path: fieldPath(key))
    }

    package func array(_ key: String) throws(WireError) -> [JSONValue] {
        guard let value = optional(key) else { throw WireError.wrongParam(fieldPath(key), "is required") }
        guard case .array(let elements) = value else {
            throw WireError.wrongParam(fieldPath(key), "expected an array, got \(value.typeName)")
        }
        return elements
    }

    /// Each element of a required array as an object, with `key[i]` paths.
    package func objects(_ key: String) throws(WireError) -> [Fields] {
        var result: [Fields] = []
        for (index, element) in try array(key).enumerated() {
            result.append(try Fields(element, path: "\(fieldPath(key))[\(index)]"))
        }
        return result
    }

    /// The value of an enum-like string member, checked against its allowed values.
    package func optionalEnum<T: RawRepresentable>(_ key: String, _ type: T.Type) throws(WireError) -> T?
    where T.RawValue == String, T: CaseIterable {
        guard let text = try optionalString(key) else { return nil }
        guard let value = T(rawValue: text) else {
            let allowed = T.allCases.map { $0.rawValue }.joined(separator: ", ")
            throw WireError.wrongParam(fieldPath(key), "'\(text)' is not one of: \(allowed)")
        }
        return value
    }

    /// Member names not in `known`, for "unknown key" warnings.
    package func unknownKeys(_ known: Set<String>) -> [String] {
        object.keys.filter { !known.contains($0) }
    }

    /// The paths of the members not in `known`, for warnings; a member one slip away from a
    /// known name (`fallbak`, `profileId`) is refused instead, naming the name it likely meant:
    /// left as a warning, the setting it was meant to be would silently not apply.
    package func unknownKeysRefusingNearMisses(_ known: Set<String>, kind: String) throws(WireError) -> [String] {
        var unknown: [String] = []
        for key in unknownKeys(known) {
            if let meant = NearestName.suggestion(for: key, among: known) {
                throw WireError(.wrongParam, "\(fieldPath(key)): is not a \(kind) key: did you mean '\(meant)'?",
                                details: JSONObject([("field", .string(fieldPath(key))), ("did_you_mean", .string(fieldPath(meant)))]))
            }
            unknown.append(fieldPath(key))
        }
        return unknown
    }
}
