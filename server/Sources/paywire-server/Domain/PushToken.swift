import _CryptoExtras
import Crypto
import Foundation
import PaywireWire

/// Checks the OIDC token a Pub/Sub push carries (`authorization: Bearer <JWT>`), as Google's
/// reference for authenticated push asks: an RS256 JWT whose key (by `kid`) is in the JWK set
/// the server was given, issued by Google (`iss` accounts.google.com), for this endpoint's
/// audience, naming the push subscription's service account as a verified `email`, not
/// expired. Pure: the key set is the caller's (`PushKeyFile` reads it), the time too.
struct PushTokenVerifier: Sendable {
    /// RSA keys by `kid`.
    let keys: [String: _RSA.Signing.PublicKey]
    let audience: String
    let serviceAccount: String
    /// Tolerated clock difference between Google and this server, in seconds.
    static let leewaySeconds = 60
    static let issuers: Set<String> = ["https://accounts.google.com", "accounts.google.com"]
    /// The refusal of a token whose `kid` names no key of the set: the one a newer key set may lift.
    static let unknownKey = "the token's kid names no key of the configured JWK set"

    /// Reads a JWK set (`{"keys": [{"kty": "RSA", "kid", "n", "e", ...}]}`, the document at
    /// https://www.googleapis.com/oauth2/v3/certs); keys that are not RSA signing keys are skipped.
    init(jwks: [UInt8], audience: String, serviceAccount: String) throws(SignedProblem) {
        guard let document = try? JSONValue(parsing: jwks), let entries = document["keys"]?.asArray else {
            throw SignedProblem("jwks", "not a JWK set: a JSON object with a keys array")
        }
        var keys: [String: _RSA.Signing.PublicKey] = [:]
        for entry in entries where entry["kty"]?.asString == "RSA" && (entry["use"]?.asString ?? "sig") == "sig" {
            guard let kid = entry["kid"]?.asString, let n = entry["n"]?.asString.flatMap({ Base64URL.decode($0) }),
                  let e = entry["e"]?.asString.flatMap({ Base64URL.decode($0) }),
                  let key = try? _RSA.Signing.PublicKey(n: n, e: e) else {
                throw SignedProblem("jwks", "an RSA key needs kid, n and e (base64url) making a key of 2048 bits or more")
            }
            keys[kid] = key
        }
        guard !keys.isEmpty else { throw SignedProblem("jwks", "the JWK set holds no RSA signing key") }
        self.keys = keys
        self.audience = audience
        self.serviceAccount = serviceAccount
    }

    /// Nil when the header carries a token that checks out at `now` (seconds since the
    /// epoch); else why not, for the 401 (never the token itself).
    func refusal(authorization: String?, now: Int) -> String? {
        guard let header = authorization, header.hasPrefix("Bearer ") else {
            return "a Pub/Sub push needs 'authorization: Bearer <OIDC token>' (an authenticated push subscription)"
        }
        let parts = header.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headBytes = Base64URL.decode(parts[0]), let bodyBytes = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]),
              let head = try? JSONValue(parsing: Array(headBytes)), let claims = try? JSONValue(parsing: Array(bodyBytes)), claims.isObject else {
            return "the bearer token is not a JWT"
        }
        guard head["alg"]?.asString == "RS256" else { return "the token's alg must be RS256" }
        guard let kid = head["kid"]?.asString, let key = keys[kid] else { return Self.unknownKey }
        guard key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: Data((parts[0] + "." + parts[1]).utf8),
                                   padding: .insecurePKCS1v1_5) else {
            return "the token's signature does not check out"
        }
        return claimsRefusal(claims, now: now)
    }

    private func claimsRefusal(_ claims: JSONValue, now: Int) -> String? {
        guard let issuer = claims["iss"]?.asString, Self.issuers.contains(issuer) else { return "the token was not issued by Google (iss)" }
        let audiences = claims["aud"]?.asString.map { [$0] } ?? claims["aud"]?.asArray?.compactMap(\.asString) ?? []
        guard audiences.contains(audience) else { return "the token's audience is not this endpoint's (aud)" }
        guard claims["email"]?.asString == serviceAccount, claims["email_verified"]?.asBool == true else {
            return "the token names another service account (email)"
        }
        guard let expiry = claims["exp"]?.asInt, now < expiry + Self.leewaySeconds else { return "the token has expired (exp)" }
        if let issuedAt = claims["iat"]?.asInt, issuedAt > now + Self.leewaySeconds { return "the token is issued in the future (iat)" }
        return nil
    }
}
