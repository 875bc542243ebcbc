import Crypto
import Foundation
import PaywireModel
import PaywireWire

/// Checks the identity token an `identify` carries: a JWT the app's own backend signed to say
/// that this device's user is `sub`. Without it, anyone holding the app key could claim any
/// customer user id and read that customer's purchases. Pure: the keys and the time are the
/// caller's.
///
/// A token is taken when its signature holds under one of the configured keys (HS256 under a
/// shared secret, RS256 or ES256 under a key of the JWK set that its `kid` names), its `sub` is
/// the customer the request claims, its `aud` names this server's audience, and `exp` (required),
/// `nbf` and `iat` hold within a minute's leeway.
package struct IdentityTokenVerifier: Sendable {
    /// HS256 keys' bytes, first to last (several while one is rotated out; a key is made from
    /// them per check: the type is not Sendable). Never logged.
    private let secrets: [Data]
    private let keys: JWKSet?
    package let audience: String
    /// Tolerated clock difference between the app's backend and this server, in seconds.
    package static let leewaySeconds = 60
    /// The shortest HS256 secret taken, in bytes: RFC 7518 asks for a key as long as the hash.
    package static let minimumSecretBytes = 32

    package init(secrets: [String], jwks: [UInt8]?, audience: String) throws(SignedProblem) {
        guard secrets.allSatisfy({ $0.utf8.count >= Self.minimumSecretBytes }) else {
            throw SignedProblem("identity_secret", "an identity secret must be at least \(Self.minimumSecretBytes) bytes")
        }
        self.secrets = secrets.map { Data($0.utf8) }
        if let jwks {
            let set = try JWKSet(jwks)
            guard !set.rsa.isEmpty || !set.p256.isEmpty else {
                throw SignedProblem("jwks", "the JWK set holds no RSA or P-256 signing key")
            }
            keys = set
        } else {
            keys = nil
        }
        self.audience = audience
    }

    /// Nil when `token` proves `customerUserId` at `now` (seconds since the epoch); else why
    /// not, for the refusal (never the token itself).
    package func refusal(token: String?, customerUserId: String, now: Int) -> String? {
        guard let token else { return "this server verifies identities: identify needs an identity_token from the app's backend" }
        guard let jwt = JWT(token) else { return "the identity_token is not a JWT" }
        if let refusal = signatureRefusal(jwt) { return refusal }
        // Bytes (the identity rule): the issuer's `sub` never passed this server's NFC check, and
        // Swift's `==` would take a decomposed twin of the customer's id for it.
        guard let subject = jwt.claims["sub"]?.asString, Identity.same(subject, customerUserId) else {
            return "the identity_token is for another customer (sub)"
        }
        guard jwt.audiences.contains(audience) else { return "the identity_token is for another audience (aud)" }
        return jwt.timeRefusal(now: now, leeway: Self.leewaySeconds)
    }

    private func signatureRefusal(_ token: JWT) -> String? {
        switch token.algorithm {
        case "HS256":
            guard !secrets.isEmpty else { return "the identity_token's alg HS256 needs --identity-secret on this server" }
            let signed = secrets.contains {
                HMAC<SHA256>.isValidAuthenticationCode(token.signature, authenticating: token.signingInput, using: SymmetricKey(data: $0))
            }
            return signed ? nil : JWKSet.badSignature
        case "RS256", "ES256":
            guard let keys else { return "the identity_token's alg \(token.algorithm ?? "") needs --identity-jwks on this server" }
            return keys.signatureRefusal(token)
        default:
            return "the identity_token's alg must be HS256, RS256 or ES256"
        }
    }
}
