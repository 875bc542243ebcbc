import PaywireModel
import PaywireWire

/// One message an onboarding page sent, understood and in canonical form.
///
/// Pages speak two dialects: snake_case (`action_id`, `meta.onboarding_id`, `screen_cid`,
/// `screen_index`, `total_screens`, `multi_select`, `date_picker`) and camelCase (`actionId`,
/// `meta.onboardingId`, `screenClientId`, `screenIndex`, `screensTotal`, `multiSelect`,
/// `datePicker`). Both are accepted, field by field; the events always use snake_case.
enum OnboardingMessage: Sendable {
    case custom(actionId: String, meta: OnboardingMeta)
    case close(actionId: String, meta: OnboardingMeta)
    case openPaywall(actionId: String, meta: OnboardingMeta)
    case stateUpdated(OnboardingStateUpdate, meta: OnboardingMeta)
    case finishedLoading(meta: OnboardingMeta)
    case analytics(OnboardingAnalyticsEvent, meta: OnboardingMeta)

    /// Largest message accepted, in bytes of JSON.
    static let maxBytes = 64 * 1024

    /// The message kinds, by every name a page may use for them.
    enum Kind: Sendable {
        case custom, close, openPaywall, stateUpdated, finishedLoading, analytics

        init?(name: String) {
            switch name {
            case "custom": self = .custom
            case "close": self = .close
            case "open_paywall", "openPaywall", "paywall": self = .openPaywall
            case "state_updated", "stateUpdated": self = .stateUpdated
            case "analytics": self = .analytics
            case "did_finish_loading", "didFinishLoading", "onboarding_loaded", "onboardingLoaded": self = .finishedLoading
            default: return nil
            }
        }
    }

    var meta: OnboardingMeta {
        switch self {
        case .custom(_, let meta), .close(_, let meta), .openPaywall(_, let meta), .stateUpdated(_, let meta),
             .finishedLoading(let meta), .analytics(_, let meta):
            return meta
        }
    }

    /// Understands a message. `type` (from the ingest params) wins over the message's own `type`;
    /// with neither, the kind is read from the shape: `name` is analytics, an element id is a
    /// state update, `meta` alone is loading finished. An action id alone is ambiguous (custom,
    /// close and paywall actions look the same) and is refused.
    static func parse(_ message: JSONValue, type: String?) throws(WireError) -> OnboardingMessage {
        do throws(WireError) {
            return try parseChecked(message, type: type)
        } catch {
            // Shape errors from the shared field readers describe the page's message, not params.
            guard error.code == .wrongParam else { throw error }
            throw WireError(.decodingFailed, error.message, details: error.details)
        }
    }

    private static func parseChecked(_ message: JSONValue, type: String?) throws(WireError) -> OnboardingMessage {
        let fields = DialectFields(try Fields(message, path: "message"))
        var kindName = type
        if kindName == nil { kindName = try fields.optionalString("type", "type") }
        let kind: Kind
        if let kindName {
            guard let named = Kind(name: kindName) else {
                throw OnboardingMessage.error("type", "'\(kindName)' is not a message type: custom, close, open_paywall, state_updated, analytics, did_finish_loading")
            }
            kind = named
        } else if fields.has("name", "name") {
            kind = .analytics
        } else if fields.has("element_id", "elementId") {
            kind = .stateUpdated
        } else if fields.has("action_id", "actionId") {
            throw OnboardingMessage.error("type", "an action message needs a type (custom, close or open_paywall)")
        } else {
            kind = .finishedLoading
        }

        let meta = try OnboardingMeta(try fields.object("meta", "meta"))
        switch kind {
        case .custom: return .custom(actionId: try fields.identifier("action_id", "actionId"), meta: meta)
        case .close: return .close(actionId: try fields.identifier("action_id", "actionId"), meta: meta)
        case .openPaywall: return .openPaywall(actionId: try fields.identifier("action_id", "actionId"), meta: meta)
        case .finishedLoading: return .finishedLoading(meta: meta)
        case .stateUpdated: return .stateUpdated(try OnboardingStateUpdate(fields), meta: meta)
        case .analytics: return .analytics(try OnboardingAnalyticsEvent(fields), meta: meta)
        }
    }

    static func error(_ field: String, _ message: String) -> WireError {
        let path = field.isEmpty ? "message" : "message.\(field)"
        return WireError(.decodingFailed, "\(path): \(message)", details: JSONObject([("field", .string(path))]))
    }
}

/// Where the user is in the flow, in canonical form.
struct OnboardingMeta: Sendable {
    let onboardingId: String
    let screenCid: String
    let screenIndex: Int
    let totalScreens: Int

    init(onboardingId: String, screenCid: String, screenIndex: Int, totalScreens: Int) {
        self.onboardingId = onboardingId
        self.screenCid = screenCid
        self.screenIndex = screenIndex
        self.totalScreens = totalScreens
    }

    init(_ fields: DialectFields) throws(WireError) {
        onboardingId = try fields.identifier("onboarding_id", "onboardingId")
        screenCid = try fields.identifier("screen_cid", "screenClientId")
        screenIndex = try fields.int("screen_index", "screenIndex", min: 0)
        totalScreens = try fields.int("total_screens", "screensTotal", min: 1)
        guard screenIndex < totalScreens else {
            throw fields.error("screen_index", "screen index \(screenIndex) is out of range for \(totalScreens) screens")
        }
    }

    func write(to writer: inout JSONWriter) {
        writer.key("meta")
        writer.object { writer in
            writer.member("onboarding_id", onboardingId)
            writer.member("screen_cid", screenCid)
            writer.member("screen_index", screenIndex)
            writer.member("total_screens", totalScreens)
        }
    }
}

/// A page message's members, read under either dialect's key (snake_case or camelCase).
/// Errors are `decoding_failed` with the path of the field (the key the page used, or the
/// snake_case one).
struct DialectFields {
    let fields: Fields

    init(_ fields: Fields) { self.fields = fields }

    func path(_ key: String) -> String { fields.fieldPath(key) }

    func has(_ snake: String, _ camel: String) -> Bool { fields.optional(snake) != nil || fields.optional(camel) != nil }

    /// The value under either key; when both are present they must agree.
    func value(_ snake: String, _ camel: String) -> JSONValue? {
        fields.optional(snake) ?? fields.optional(camel)
    }

    private func keyUsed(_ snake: String, _ camel: String) -> String {
        fields.optional(snake) == nil && fields.optional(camel) != nil ? camel : snake
    }

    func error(_ key: String, _ message: String) -> WireError {
        let full = key.isEmpty ? fields.path : fields.fieldPath(key)
        return WireError(.decodingFailed, "\(full): \(message)", details: JSONObject([("field", .string(full))]))
    }

    private func checkAgreement(_ snake: String, _ camel: String) throws(WireError) {
        if snake != camel, let first = fields.optional(snake), let second = fields.optional(camel), first != second {
            throw error(snake, "given as both \(snake) and \(camel) with different values")
        }
    }

    func optionalString(_ snake: String, _ camel: String) throws(WireError) -> String? {
        try checkAgreement(snake, camel)
        guard let value = value(snake, camel) else { return nil }
        guard case .string(let text) = value else {
            throw error(keyUsed(snake, camel), "expected a string, got \(value.typeName)")
        }
        return text
    }

    func string(_ snake: String, _ camel: String) throws(WireError) -> String {
        guard let text = try optionalString(snake, camel) else { throw error(snake, "is required") }
        return text
    }

    func identifier(_ snake: String, _ camel: String) throws(WireError) -> String {
        let text = try string(snake, camel)
        guard !text.isEmpty else { throw error(keyUsed(snake, camel), "must not be empty") }
        return text
    }

    func int(_ snake: String, _ camel: String, min: Int) throws(WireError) -> Int {
        try checkAgreement(snake, camel)
        guard let value = value(snake, camel) else { throw error(snake, "is required") }
        guard case .number(let number) = value, let integer = number.intValue else {
            throw error(keyUsed(snake, camel), "expected a whole number, got \(value.typeName == "number" ? "a fraction" : value.typeName)")
        }
        guard integer >= min, integer <= 1_000_000 else {
            throw error(keyUsed(snake, camel), "\(integer) is out of range")
        }
        return integer
    }

    func object(_ snake: String, _ camel: String) throws(WireError) -> DialectFields {
        try checkAgreement(snake, camel)
        guard let value = value(snake, camel) else { throw error(snake, "is required") }
        guard case .object(let object) = value else {
            throw error(keyUsed(snake, camel), "expected an object, got \(value.typeName)")
        }
        return DialectFields(Fields(object, path: fields.fieldPath(keyUsed(snake, camel))))
    }

    func optionalObject(_ snake: String, _ camel: String) throws(WireError) -> DialectFields? {
        guard has(snake, camel) else { return nil }
        return try object(snake, camel)
    }

    func array(_ snake: String, _ camel: String) throws(WireError) -> [JSONValue] {
        try checkAgreement(snake, camel)
        guard let value = value(snake, camel) else { throw error(snake, "is required") }
        guard case .array(let elements) = value else {
            throw error(keyUsed(snake, camel), "expected an array, got \(value.typeName)")
        }
        return elements
    }
}

#if DEBUG
// Tests compare these; the release library never does and leaves their == out (20 KB in all).
extension OnboardingMessage: Equatable {}
extension OnboardingMeta: Equatable {}
#endif
