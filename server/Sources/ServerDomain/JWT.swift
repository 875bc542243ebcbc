import _CryptoExtras
import Crypto
import Foundation
import PaywireWire

/// A compact JWS whose payload is a JSON object of claims (RFC 7519): what Pub/Sub's push
/// tokens and the app backend's identity tokens are. Parsing checks its shape only; a verifier
/// checks the signature and the claims.
package struct JWT: Sendable {
    package let head: JSONValue
    package let claims: JSONValue
    /// `header.payload` as sent: what the signature covers.
    package let signingInput: Data
    package let signature: Data

    package init?(_ token: some StringProtocol) {
        let parts = String(token).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headBytes = Base64.decodeURL(parts[0]), let bodyBytes = Base64.decodeURL(parts[1]),
              let signature = Base64.decodeURL(parts[2]), let head = try? JSONValue(parsing: Array(headBytes)), head.isObject,
              let claims = try? JSONValue(parsing: Array(bodyBytes)), claims.isObject else { return nil }
        self.head = head
        self.claims = claims
        self.signingInput = Data((parts[0] + "." + parts[1]).utf8)
        self.signature = Data(signature)
    }

    package var algorithm: String? { head["alg"]?.asString }
    package var keyId: String? { head["kid"]?.asString }

    /// `aud` as a list (a string or an array of strings).
    package var audiences: [String] { claims["aud"]?.asString.map { [$0] } ?? claims["aud"]?.asArray?.compactMap(\.asString) ?? [] }

    /// Why the token's time claims do not hold at `now` (seconds), allowing `leeway` either way; nil when they do.
    /// `exp` is required.
    package func timeRefusal(now: Int, leeway: Int) -> String? {
        guard let expiry = claims["exp"]?.asInt else { return "the token has no expiry (exp)" }
        guard now < expiry + leeway else { return "the token has expired (exp)" }
        if let notBefore = claims["nbf"]?.asInt, now + leeway < notBefore { return "the token is not valid yet (nbf)" }
        if let issuedAt = claims["iat"]?.asInt, issuedAt > now + leeway { return "the token is issued in the future (iat)" }
        return nil
    }
}

/// A JWK set's signing keys by `kid`: RSA (RS256) and P-256 (ES256); other keys are skipped.
package struct JWKSet: Sendable {
    package let rsa: [String: _RSA.Signing.PublicKey]
    /// P-256 keys as their raw x‖y (a key is made from them per check: the type is not Sendable).
    package let p256: [String: Data]

    package init(_ bytes: [UInt8]) throws(SignedProblem) {
        guard let document = try? JSONValue(parsing: bytes), let entries = document["keys"]?.asArray else {
            throw SignedProblem("jwks", "not a JWK set: a JSON object with a keys array")
        }
        var rsa: [String: _RSA.Signing.PublicKey] = [:], p256: [String: Data] = [:]
        for entry in entries where (entry["use"]?.asString ?? "sig") == "sig" {
            switch entry["kty"]?.asString {
            case "RSA":
                guard let kid = entry["kid"]?.asString, let n = entry["n"]?.asString.flatMap({ Base64.decodeURL($0) }),
                      let e = entry["e"]?.asString.flatMap({ Base64.decodeURL($0) }),
                      let key = try? _RSA.Signing.PublicKey(n: n, e: e) else {
                    throw SignedProblem("jwks", "an RSA key needs kid, n and e (base64url) making a key of 2048 bits or more")
                }
                rsa[kid] = key
            case "EC" where entry["crv"]?.asString == "P-256":
                guard let kid = entry["kid"]?.asString, let x = entry["x"]?.asString.flatMap({ Base64.decodeURL($0) }),
                      let y = entry["y"]?.asString.flatMap({ Base64.decodeURL($0) }), x.count == 32, y.count == 32,
                      (try? P256.Signing.PublicKey(rawRepresentation: x + y)) != nil else {
                    throw SignedProblem("jwks", "a P-256 key needs kid, x and y (base64url, 32 bytes each) on the curve")
                }
                p256[kid] = Data(x + y)
            default:
                continue
            }
        }
        self.rsa = rsa
        self.p256 = p256
    }

    /// Whether the token's signature holds under the key its `kid` names, for its `alg`
    /// (RS256 or ES256 only): nil when it does, else why not.
    package func signatureRefusal(_ token: JWT) -> String? {
        guard let kid = token.keyId else { return "the token names no key (kid)" }
        switch token.algorithm {
        case "RS256":
            guard let key = rsa[kid] else { return JWKSet.unknownKey }
            let signature = _RSA.Signing.RSASignature(rawRepresentation: token.signature)
            return key.isValidSignature(signature, for: token.signingInput, padding: .insecurePKCS1v1_5) ? nil : JWKSet.badSignature
        case "ES256":
            guard let raw = p256[kid], let key = try? P256.Signing.PublicKey(rawRepresentation: raw) else { return JWKSet.unknownKey }
            guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: token.signature) else { return JWKSet.badSignature }
            return key.isValidSignature(signature, for: token.signingInput) ? nil : JWKSet.badSignature
        default:
            return "the token's alg must be RS256 or ES256"
        }
    }

    /// The refusal of a token whose `kid` names no key of the set: the one a newer key set may lift.
    package static let unknownKey = "the token's kid names no key of the configured JWK set"
    package static let badSignature = "the token's signature does not check out"
}
