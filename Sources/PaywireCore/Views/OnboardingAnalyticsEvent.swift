import PaywireModel
import PaywireWire

/// An analytics event of the flow, with its canonical snake_case name when it is a known one.
struct OnboardingAnalyticsEvent: Sendable {
    static let knownNames: Set<String> = [
        "onboarding_started", "screen_presented", "screen_completed", "second_screen_presented",
        "registration_screen_presented", "products_screen_presented", "user_email_collected",
        "onboarding_completed",
    ]

    /// The canonical name, or the name as sent when it is not a known one.
    let name: String
    let isKnown: Bool
    let elementId: String?
    let reply: String?

    init(name: String, isKnown: Bool, elementId: String?, reply: String?) {
        self.name = name
        self.isKnown = isKnown
        self.elementId = elementId
        self.reply = reply
    }

    init(_ fields: DialectFields) throws(WireError) {
        let sent = try fields.identifier("name", "name")
        let canonical = OnboardingAnalyticsEvent.snakeCase(sent)
        isKnown = OnboardingAnalyticsEvent.knownNames.contains(canonical)
        name = isKnown ? canonical : sent
        // element_id and reply sit in params, or (in some pages) beside name.
        var params = fields
        if let nested = try fields.optionalObject("params", "params") { params = nested }
        elementId = try params.optionalString("element_id", "elementId")
        reply = try params.optionalString("reply", "reply")
    }

    /// `screenCompleted` -> `screen_completed`; snake_case names are unchanged.
    static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                if !result.isEmpty { result.append("_") }
                result.append(contentsOf: character.lowercased())
            } else {
                result.append(character)
            }
        }
        return result
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("name", name)
            writer.member("unknown", !isKnown)
            if let elementId { writer.member("element_id", elementId) }
            if let reply { writer.member("reply", reply) }
        }
    }
}

#if DEBUG
// Tests compare these; the release library never does and leaves their == out (20 KB in all).
extension OnboardingAnalyticsEvent: Equatable {}
#endif
