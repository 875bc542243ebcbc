/// The user the client acts for: an anonymous profile id, optionally tied to the app's own
/// customer user id. Persisted so the same device keeps its A/B variations across restarts.
struct Profile: Equatable, Sendable {
    var profileId: String
    var customerUserId: String?
    /// Recorded from an onboarding's email input when the onboarding asks for it.
    var email: String?

    init(profileId: String, customerUserId: String?, email: String? = nil) {
        self.profileId = profileId
        self.customerUserId = customerUserId
        self.email = email
    }

    static let storageKey = "profile"

    /// A random version-4 UUID in lowercase, the form profile ids take on every platform.
    static func newProfileId() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte -> String in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }.joined()
        var result = ""
        for (index, character) in hex.enumerated() {
            if [8, 12, 16, 20].contains(index) { result.append("-") }
            result.append(character)
        }
        return result
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("profile_id", profileId)
            writer.member("customer_user_id", customerUserId)
            writer.member("email", email)
            writer.key("access_levels")
            writer.object { _ in }
            writer.key("subscriptions")
            writer.object { _ in }
        }
    }

    /// The stored record: just the identity, never derived state.
    var record: [UInt8] {
        var writer = JSONWriter()
        writer.object { writer in
            writer.member("profile_id", profileId)
            writer.member("customer_user_id", customerUserId)
            writer.member("email", email)
        }
        return writer.bytes
    }

    /// Reads a stored record; nil when it is unreadable (it is then replaced).
    static func fromRecord(_ bytes: [UInt8]) -> Profile? {
        guard case .object(let object)? = try? JSONParser.parse(bytes),
              case .string(let id)? = object["profile_id"], !id.isEmpty else { return nil }
        var customer: String?
        if case .string(let text)? = object["customer_user_id"], !text.isEmpty { customer = text }
        var email: String?
        if case .string(let text)? = object["email"], !text.isEmpty { email = text }
        return Profile(profileId: id, customerUserId: customer, email: email)
    }
}
