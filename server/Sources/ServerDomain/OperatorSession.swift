/// An operator signed in to the dashboard in a browser: a `SecretToken` in a cookie, of which
/// the store keeps the digest, the operator key's id and the digest of that key's digest (its
/// scopes are read from the keys the server has now; a key rotated out, or given a new secret
/// under the same id, ends its sessions) and when it ends. Every replica reads the same row.
package struct OperatorSession: Sendable, Equatable {
    package let keyId: String
    /// `OperatorSession.binding(ofKeyDigest:)` of the key signed in with.
    package let keyBinding: String
    package let expiresAt: Int

    package init(keyId: String, keyBinding: String, expiresAt: Int) {
        self.keyId = keyId
        self.keyBinding = keyBinding
        self.expiresAt = expiresAt
    }

    /// What a session keeps of the key it was started with: its digest's digest, which opens
    /// nothing, and which any change of the key's secret changes.
    package static func binding(ofKeyDigest keyDigest: [UInt8]) -> String { SecretToken.digest(of: keyDigest) }

    /// Whether the key of `keyDigest` (found by the session's key id) is still the key the
    /// session began with.
    package func isBound(toKeyDigest keyDigest: [UInt8]) -> Bool {
        ConstantTime.same(Array(keyBinding.utf8), Array(Self.binding(ofKeyDigest: keyDigest).utf8)) == 1
    }
}

/// The cookies and form fields of the dashboard's sign-in, and their rules.
package enum SessionCookies {
    /// The session's cookie: HttpOnly, SameSite=Strict, on /dashboard only.
    package static let session = "paywire_session"
    /// The sign-in form's own CSRF token, as a cookie the form's field must repeat.
    package static let login = "paywire_login"

    /// The value of cookie `name` in a `Cookie` header, or nil.
    package static func value(_ name: String, in header: String?) -> Substring? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            if trimmed[..<equals] == name[...] { return trimmed[trimmed.index(after: equals)...] }
        }
        return nil
    }

    /// A `Set-Cookie` value: the cookie on `path`, for `maxAge` seconds (0 ends it).
    package static func setCookie(_ name: String, _ value: String, path: String, maxAge: Int, secure: Bool) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// Where to go after signing in: a dashboard path the form carried, else the dashboard.
    /// Anything else (another host, a scheme, `//`) is not followed: no open redirect.
    package static func destination(_ next: String?) -> String {
        guard let next, next == "/dashboard" || next.hasPrefix("/dashboard/"), !next.hasPrefix("/dashboard/login"),
              next.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else { return "/dashboard" }
        return next
    }
}
