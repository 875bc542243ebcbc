import _CryptoExtras
import Crypto
import Foundation
import PaywireWire

/// Checks the OIDC token a Pub/Sub push carries (`authorization: Bearer <JWT>`), as Google's
/// reference for authenticated push asks: an RS256 JWT whose key (by `kid`) is in the JWK set
/// the server was given, issued by Google (`iss` accounts.google.com), for this endpoint's
/// audience, naming the push subscription's service account as a verified `email`, not
/// expired. Pure: the key set is the caller's (`PushKeyFile` reads it), the time too.
package struct PushTokenVerifier: Sendable {
    /// The set's RSA keys (Google signs RS256).
    package let keys: JWKSet
    package let audience: String
    package let serviceAccount: String
    /// Tolerated clock difference between Google and this server, in seconds.
    package static let leewaySeconds = 60
    package static let issuers: Set<String> = ["https://accounts.google.com", "accounts.google.com"]
    /// The refusal of a token whose `kid` names no key of the set: the one a newer key set may lift.
    package static let unknownKey = JWKSet.unknownKey

    /// Reads a JWK set (`{"keys": [{"kty": "RSA", "kid", "n", "e", ...}]}`, the document at
    /// https://www.googleapis.com/oauth2/v3/certs).
    package init(jwks: [UInt8], audience: String, serviceAccount: String) throws(SignedProblem) {
        let keys = try JWKSet(jwks)
        guard !keys.rsa.isEmpty else { throw SignedProblem("jwks", "the JWK set holds no RSA signing key") }
        self.keys = keys
        self.audience = audience
        self.serviceAccount = serviceAccount
    }

    /// Nil when the header carries a token that checks out at `now` (seconds since the
    /// epoch); else why not, for the 401 (never the token itself).
    package func refusal(authorization: String?, now: Int) -> String? {
        guard let header = authorization, header.hasPrefix("Bearer ") else {
            return "a Pub/Sub push needs 'authorization: Bearer <OIDC token>' (an authenticated push subscription)"
        }
        guard let token = JWT(header.dropFirst("Bearer ".count)) else { return "the bearer token is not a JWT" }
        guard token.algorithm == "RS256" else { return "the token's alg must be RS256" }
        if let refusal = keys.signatureRefusal(token) { return refusal }
        return claimsRefusal(token, now: now)
    }

    private func claimsRefusal(_ token: JWT, now: Int) -> String? {
        let claims = token.claims
        guard let issuer = claims["iss"]?.asString, Self.issuers.contains(issuer) else { return "the token was not issued by Google (iss)" }
        guard token.audiences.contains(audience) else { return "the token's audience is not this endpoint's (aud)" }
        guard claims["email"]?.asString == serviceAccount, claims["email_verified"]?.asBool == true else {
            return "the token names another service account (email)"
        }
        return token.timeRefusal(now: now, leeway: Self.leewaySeconds)
    }
}
