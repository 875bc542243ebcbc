import PaywireWire

/// The rules for `update_profile`'s standard attributes, the same on every platform. The set
/// and the enum values follow what AdaptySDK and RevenueCat accept (gender female/male/other,
/// the ATT statuses), so a wrapper maps its own types one to one. Each value is a string and
/// `null` removes it; `analytics_disabled` is a boolean of its own (`Profile.analyticsDisabled`).
package enum StandardAttributeRules {
    /// The string-valued standard attributes, in the order the profile shows them.
    package static let keys = ["email", "phone_number", "first_name", "last_name", "gender", "birthday", "app_tracking_transparency_status"]
    package static let genders: Set<String> = ["female", "male", "other"]
    package static let trackingStatuses: Set<String> = ["authorized", "denied", "restricted", "not_determined"]
    /// RFC 5321's limit on a forward path.
    package static let maxEmailBytes = 254
    /// The oldest birthday taken: older ones are typos, not people.
    package static let firstBirthdayYear: WideInt = 1900

    /// Applies the standard members of `params` to `standard` (wire key -> value), refusing the
    /// whole update when one breaks a rule. `now` (ms) bounds a birthday: none in the future.
    package static func apply(_ params: Fields, to standard: inout [String: String], now: WideInt) throws(WireError) {
        var next = standard
        for key in keys {
            guard let value = params.object[key] else { continue }
            let path = params.fieldPath(key)
            guard case .string(let text) = value else {
                guard value == .null else { throw WireError.wrongParam(path, "expected a string, or null to remove it") }
                next[key] = nil
                continue
            }
            if let problem = problem(key, text, now: now) { throw WireError.wrongParam(path, problem) }
            next[key] = text
        }
        standard = next
    }

    /// Why `text` is not a valid value of `key`, or nil when it is.
    package static func problem(_ key: String, _ text: String, now: WideInt) -> String? {
        switch key {
        case "email": return isValidEmail(text) ? nil : "expected an email address (local@domain, no spaces, at most 254 bytes)"
        case "phone_number": return isValidPhone(text) ? nil : "expected a phone number: an optional '+' and 4 to 15 digits, which spaces, '-', '.', '(' or ')' may separate"
        case "first_name", "last_name": return isValidName(text) ? nil : "expected a name that is not blank, at most \(ValueLimits.maxStringBytes) bytes"
        case "gender": return genders.contains(text) ? nil : "'\(text)' is not one of: female, male, other"
        case "birthday": return isValidBirthday(text, now: now) ? nil : "expected a real date YYYY-MM-DD from 1900-01-01 up to today"
        case "app_tracking_transparency_status":
            return trackingStatuses.contains(text) ? nil : "'\(text)' is not one of: authorized, denied, restricted, not_determined"
        default: return "is not a standard attribute"
        }
    }

    /// One `@` with something on both sides, a dot in the domain, and no spaces or controls:
    /// enough to catch a field mix-up (a name in the email) without rejecting real addresses.
    package static func isValidEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard text.utf8.count <= maxEmailBytes, parts.count == 2, let local = parts.first, let domain = parts.last,
              !local.isEmpty, domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix(".") else { return false }
        return !text.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// E.164 allows at most 15 digits; 4 is the shortest number worth keeping.
    package static func isValidPhone(_ text: String) -> Bool {
        var digits = 0
        for (index, scalar) in text.unicodeScalars.enumerated() {
            switch scalar {
            case "0"..."9": digits += 1
            case "+" where index == 0: continue
            case " ", "-", ".", "(", ")": continue
            default: return false
            }
        }
        return (4...15).contains(digits) && text.utf8.count <= 32
    }

    package static func isValidName(_ text: String) -> Bool {
        text.utf8.count <= ValueLimits.maxStringBytes && text.unicodeScalars.contains { !$0.properties.isWhitespace }
            && !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// `YYYY-MM-DD`, a date the calendar has, from 1900-01-01 to the UTC day of `now`.
    package static func isValidBirthday(_ text: String, now: WideInt) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> WideInt? {
            var value: WideInt = 0
            for index in range {
                guard bytes[index] >= 48, bytes[index] <= 57 else { return nil }
                value = value * 10 + WideInt(bytes[index] - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              year >= firstBirthdayYear, (1...12).contains(month), day >= 1, day <= ISODate.daysIn(month: month, year: year) else {
            return false
        }
        // Days since the epoch, floored: a clock before 1970 still compares correctly.
        let span = Milliseconds.day
        let today = now / span - (now % span < 0 ? 1 : 0)
        return ISODate.days(year: year, month: month, day: day) <= today
    }
}
