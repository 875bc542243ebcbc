import Crypto

/// A bearer secret the server makes and hands out once: 32 random bytes as base64url (43
/// characters), of which only the SHA-256 is kept, so a copy of the database opens nothing.
/// Redemption links and operators' dashboard sessions are such tokens. Pure: the random bytes
/// come from the source `make` is given.
enum SecretToken {
    static let bytes = 32

    /// A new token and the digest to keep of it.
    static func make(_ random: any RandomSource) -> (token: String, digest: String) {
        let secret = random.bytes(bytes)
        return (Base64URL.encode(secret), digest(of: secret))
    }

    /// The digest of a token as sent; nil when it is not 32 bytes of base64url (no such token
    /// was ever made).
    static func digest(ofToken token: some StringProtocol) -> String? {
        let base64URL = token.utf8.allSatisfy { c in
            (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x2D || c == 0x5F
        }
        guard token.utf8.count == 43, base64URL, let data = Base64URL.decode(String(token)), data.count == bytes else { return nil }
        return digest(of: Array(data))
    }

    static func digest(of secret: [UInt8]) -> String {
        SHA256.hash(data: secret).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// A value bound to the token and to `purpose` that the kept digest cannot give: a
    /// session's CSRF token is `derived(token, "csrf")`, so it needs no column of its own and a
    /// copy of the database forges none.
    static func derived(_ token: some StringProtocol, _ purpose: String) -> String {
        let message = Array(purpose.utf8) + [0] + Array(token.utf8)
        return Base64URL.encode(Array(SHA256.hash(data: message)))
    }
}
