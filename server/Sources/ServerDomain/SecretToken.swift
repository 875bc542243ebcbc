import Crypto
import PaywireModel
import PaywireWire

/// A bearer secret the server makes and hands out once: 32 random bytes as base64url (43
/// characters), of which only the SHA-256 is kept, so a copy of the database opens nothing.
/// Redemption links and operators' dashboard sessions are such tokens. Pure: the random bytes
/// come from the source `make` is given.
package enum SecretToken {
    package static let bytes = SecretTokenText.randomBytes

    /// A new token and the digest to keep of it.
    package static func make(_ random: any RandomSource) -> (token: String, digest: String) {
        let secret = random.bytes(bytes)
        return (Base64.encodeURL(secret), digest(of: secret))
    }

    /// The digest of a token as sent; nil when it is not 32 bytes of base64url (no such token
    /// was ever made).
    package static func digest(ofToken token: some StringProtocol) -> String? {
        guard let secret = SecretTokenText.bytes(of: token) else { return nil }
        return digest(of: secret)
    }

    package static func digest(of secret: [UInt8]) -> String {
        Hex.encode(SHA256.hash(data: secret))
    }

    /// A value bound to the token and to `purpose` that the kept digest cannot give: a
    /// session's CSRF token is `derived(token, "csrf")`, so it needs no column of its own and a
    /// copy of the database forges none.
    package static func derived(_ token: some StringProtocol, _ purpose: String) -> String {
        let message = Array(purpose.utf8) + [0] + Array(token.utf8)
        return Base64.encodeURL(Array(SHA256.hash(data: message)))
    }
}
