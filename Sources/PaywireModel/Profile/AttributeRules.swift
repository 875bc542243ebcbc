import PaywireWire

/// The rules for custom attributes (`update_profile`), the same on every platform: keys are 1
/// to 64 letters, digits, `_`, `-` or `.`; values are strings of at most 256 bytes, finite
/// numbers or booleans; `null` removes a key; a profile holds at most 100.
package enum AttributeRules {
    package static let maxKeyBytes = 64
    package static let maxAttributes = 100

    /// Applies `attributes` to `current`, refusing the whole update when one member breaks a rule.
    package static func apply(_ attributes: Fields, to current: inout JSONObject) throws(WireError) {
        var next = current
        for member in attributes.object.members {
            let key = member.key
            let path = attributes.fieldPath(key)
            guard isValidKey(key) else {
                throw WireError.wrongParam(path, "a custom attribute key is 1 to 64 letters, digits, '_', '-' or '.'")
            }
            if member.value == .null {
                next = JSONObject(next.members.filter { $0.key != key })
                continue
            }
            guard isValidValue(member.value) else {
                throw WireError.wrongParam(path, "expected a string of at most \(ValueLimits.maxStringBytes) bytes, a finite number, a boolean, or null to remove it")
            }
            next.set(key, member.value)
        }
        guard next.members.count <= maxAttributes else {
            throw WireError.wrongParam("custom_attributes", "a profile holds at most 100 custom attributes")
        }
        current = next
    }

    package static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= maxKeyBytes
            && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }
    }

    package static func isValidValue(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): return text.utf8.count <= ValueLimits.maxStringBytes
        case .bool: return true
        case .number(let number): return number.doubleValue != nil
        case .null, .array, .object: return false
        }
    }
}
