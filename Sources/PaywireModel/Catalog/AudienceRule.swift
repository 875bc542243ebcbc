import PaywireWire

/// Who an audience is for: a small rule language evaluated on the device, so the choice works
/// offline and is the same on every platform. Rules are data, never code:
///
///     {"all": [rule, ...]}            every rule matches (an empty list matches)
///     {"any": [rule, ...]}            at least one matches
///     {"not": rule}
///     {"attribute": "<name>", "op": "<op>", "value": <value>}
///
/// Attributes: `custom.<key>` (custom attributes set by `update_profile`), `locale` (the
/// request's language subtag), `platform`, `app_version`, `access_level.<id>` (true while the
/// access level is active), `install_age_days`. Ops: `eq`, `ne`, `in`, `not_in` (value a list),
/// `gt`, `gte`, `lt`, `lte` (numbers; for `app_version`, dotted versions compared part by part),
/// `starts_with` (strings), `exists` (value true or false). A rule that does not fit this is
/// refused when its placement is loaded, naming its JSON path; it never silently fails to match.
package indirect enum AudienceRule: Equatable, Sendable {
    case all([AudienceRule])
    case any([AudienceRule])
    case not(AudienceRule)
    case compare(attribute: String, op: Op, value: JSONValue)

    package enum Op: String, WireEnum, Sendable {
        case eq, ne, `in`, not_in, gt, gte, lt, lte, starts_with, exists
    }

    package static let maxDepth = 16

    /// Reads a rule; errors are `wrong_param` with the rule's path (the bundle loader turns
    /// them into `invalid_fallback`).
    package static func load(_ value: JSONValue, path: String, depth: Int = 0) throws(WireError) -> AudienceRule {
        guard depth < maxDepth else { throw WireError.wrongParam(path, "rules nest deeper than \(maxDepth)") }
        let fields = try Fields(value, path: path)
        let keys = Set(fields.object.keys)
        if keys == ["all"] || keys == ["any"] {
            let key = keys.contains("all") ? "all" : "any"
            var rules: [AudienceRule] = []
            for (index, element) in try fields.array(key).enumerated() {
                rules.append(try load(element, path: "\(path).\(key)[\(index)]", depth: depth + 1))
            }
            return key == "all" ? .all(rules) : .any(rules)
        }
        if keys == ["not"], let inner = fields.object["not"] {
            return .not(try load(inner, path: "\(path).not", depth: depth + 1))
        }
        guard keys.isSubset(of: ["attribute", "op", "value"]), keys.contains("attribute"), keys.contains("op") else {
            throw WireError.wrongParam(path, "expected {all}, {any}, {not} or {attribute, op, value}")
        }
        let attribute = try fields.identifier("attribute")
        guard AudienceRule.isKnownAttribute(attribute) else {
            throw WireError.wrongParam(fields.fieldPath("attribute"),
                "'\(attribute)' is not one of: custom.<key>, locale, platform, app_version, access_level.<id>, install_age_days")
        }
        guard let op = try fields.optionalEnum("op", Op.self) else { throw WireError.wrongParam(fields.fieldPath("op"), "is required") }
        let operand = fields.object["value"] ?? .null
        let valuePath = fields.fieldPath("value")
        switch op {
        case .in, .not_in:
            guard case .array(let items) = operand, !items.isEmpty else { throw WireError.wrongParam(valuePath, "expected a non-empty list") }
        case .gt, .gte, .lt, .lte:
            if attribute == "app_version" {
                guard case .string(let version) = operand, Version(version) != nil else {
                    throw WireError.wrongParam(valuePath, "expected a dotted version like 2.10.1")
                }
            } else {
                guard case .number(let number) = operand, number.doubleValue != nil else { throw WireError.wrongParam(valuePath, "expected a number") }
            }
        case .starts_with:
            guard case .string = operand else { throw WireError.wrongParam(valuePath, "expected a string") }
        case .exists:
            guard case .bool = operand else { throw WireError.wrongParam(valuePath, "expected true or false") }
        case .eq, .ne:
            switch operand {
            case .string, .number, .bool: break
            default: throw WireError.wrongParam(valuePath, "expected a string, number or boolean")
            }
        }
        return .compare(attribute: attribute, op: op, value: operand)
    }

    package static func isKnownAttribute(_ name: String) -> Bool {
        ["locale", "platform", "app_version", "install_age_days"].contains(name)
            || (name.hasPrefix("custom.") && name.count > 7)
            || (name.hasPrefix("access_level.") && name.count > 13)
    }

    /// Whether the rule holds for `context`. A missing attribute fails every comparison except
    /// `ne`, `not_in` and `exists: false`.
    package func matches(_ context: AudienceContext) -> Bool {
        switch self {
        case .all(let rules): return rules.allSatisfy { $0.matches(context) }
        case .any(let rules): return rules.contains { $0.matches(context) }
        case .not(let rule): return !rule.matches(context)
        case .compare(let attribute, let op, let operand):
            let actual = context.value(of: attribute)
            switch op {
            case .exists:
                return (actual != nil) == (operand == .bool(true))
            case .eq: return actual.map { AudienceRule.equal($0, operand) } ?? false
            case .ne: return !(actual.map { AudienceRule.equal($0, operand) } ?? false)
            case .in:
                guard let actual, case .array(let items) = operand else { return false }
                return items.contains { AudienceRule.equal(actual, $0) }
            case .not_in:
                guard let actual, case .array(let items) = operand else { return true }
                return !items.contains { AudienceRule.equal(actual, $0) }
            case .starts_with:
                guard case .string(let text)? = actual, case .string(let prefix) = operand else { return false }
                return text.hasPrefix(prefix)
            case .gt, .gte, .lt, .lte:
                guard let actual, let order = AudienceRule.order(actual, operand, versions: attribute == "app_version") else { return false }
                switch op {
                case .gt: return order > 0
                case .gte: return order >= 0
                case .lt: return order < 0
                default: return order <= 0
                }
            }
        }
    }

    private static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.number(let a), .number(let b)): return a.doubleValue != nil && a.doubleValue == b.doubleValue
        default: return left == right
        }
    }

    /// -1, 0 or 1; nil when the two cannot be ordered.
    private static func order(_ left: JSONValue, _ right: JSONValue, versions: Bool) -> Int? {
        if versions {
            guard case .string(let a) = left, case .string(let b) = right, let va = Version(a), let vb = Version(b) else { return nil }
            return va < vb ? -1 : (vb < va ? 1 : 0)
        }
        guard case .number(let a) = left, case .number(let b) = right, let da = a.doubleValue, let db = b.doubleValue else { return nil }
        return da < db ? -1 : (da > db ? 1 : 0)
    }

    /// A dotted version: `2.10` > `2.9`, missing parts are 0 (`2` == `2.0.0`).
    package struct Version: Comparable {
        package let parts: [Int]

        package init?(_ text: String) {
            let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
            guard !pieces.isEmpty, pieces.count <= 6 else { return nil }
            var parts: [Int] = []
            for piece in pieces {
                guard let number = Int(piece), number >= 0 else { return nil }
                parts.append(number)
            }
            self.parts = parts
        }

        package static func < (lhs: Version, rhs: Version) -> Bool {
            for index in 0..<max(lhs.parts.count, rhs.parts.count) {
                let a = index < lhs.parts.count ? lhs.parts[index] : 0
                let b = index < rhs.parts.count ? rhs.parts[index] : 0
                if a != b { return a < b }
            }
            return false
        }

        package static func == (lhs: Version, rhs: Version) -> Bool { !(lhs < rhs) && !(rhs < lhs) }
    }
}

/// What audience rules are evaluated against.
package struct AudienceContext: Sendable {
    package var customAttributes: JSONObject
    package var language: String
    package var platform: String?
    package var appVersion: String?
    package var activeAccessLevels: Set<String>
    package var installAgeDays: Int?

    package init(customAttributes: JSONObject, language: String, platform: String? = nil, appVersion: String? = nil, activeAccessLevels: Set<String>, installAgeDays: Int? = nil) {
        self.customAttributes = customAttributes
        self.language = language
        self.platform = platform
        self.appVersion = appVersion
        self.activeAccessLevels = activeAccessLevels
        self.installAgeDays = installAgeDays
    }

    package func value(of attribute: String) -> JSONValue? {
        switch attribute {
        case "locale": return .string(language)
        case "platform": return platform.map { .string($0) }
        case "app_version": return appVersion.map { .string($0) }
        case "install_age_days": return installAgeDays.map { .number(JSONNumber($0)) }
        default:
            if attribute.hasPrefix("custom.") {
                let key = String(attribute.dropFirst(7))
                guard let value = customAttributes[key], value != .null else { return nil }
                return value
            }
            if attribute.hasPrefix("access_level.") {
                return .bool(activeAccessLevels.contains(String(attribute.dropFirst(13))))
            }
            return nil
        }
    }
}
