import PaywireWire
import ServerDomain

/// A web paywall's visitor: a profile of its own, as a device has, whose credential
/// (`ProfileCredentials`) lives in a first-party cookie, `paywire_visitor=<profile id>.<credential>`
/// (HttpOnly, SameSite=Lax so the browser still sends it when Stripe sends it back, Secure
/// behind https, on /web only). Pure: reading and writing the cookie, and the CSRF token its
/// checkout form carries, derived from the credential as a dashboard session's is.
struct WebVisitor: Sendable, Equatable {
    static let cookie = "paywire_visitor"
    /// A visitor's profile id: the prefix says where it was made (results and support see it).
    static let profilePrefix = VisitorProfileId.prefix
    /// A year: a visitor who comes back keeps their profile, and so their variation.
    static let cookieMaxAge = 365 * 24 * 3600

    let profileId: String
    let credential: String

    /// The visitor a `Cookie` header names; nil without the cookie or with one not of this shape
    /// (such a visitor is met as new).
    static func read(cookieHeader: String?) -> WebVisitor? {
        guard let value = SessionCookies.value(cookie, in: cookieHeader), let dot = value.lastIndex(of: ".") else { return nil }
        let profileId = String(value[..<dot]), credential = String(value[value.index(after: dot)...])
        guard isProfileId(profileId), SecretToken.digest(ofToken: credential) != nil else { return nil }
        return WebVisitor(profileId: profileId, credential: credential)
    }

    /// Whether `profileId` has a visitor's shape: `web-` and 32 lowercase hex digits.
    static func isProfileId(_ profileId: String) -> Bool { VisitorProfileId.matches(profileId) }

    /// A new visitor's profile id: `web-` and 32 hex digits of randomness.
    static func newProfileId(_ random: any RandomSource) -> String {
        profilePrefix + Hex.encode(random.bytes(16))
    }

    /// The `Set-Cookie` that keeps this visitor.
    func setCookie(secure: Bool) -> String {
        "\(Self.cookie)=\(profileId).\(credential); Path=/web; Max-Age=\(Self.cookieMaxAge); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// The token the checkout form repeats: a cross-site form carries none that matches.
    var csrf: String { SecretToken.derived(credential, "web-csrf") }
}
