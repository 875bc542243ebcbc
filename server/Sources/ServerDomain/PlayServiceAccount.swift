import _CryptoExtras
import Foundation
import PaywireWire

/// A Google service account's JSON key (`--play-service-account FILE`) and the OAuth 2.0
/// JWT-bearer assertion it signs (RFC 7523, as Google's server-to-server OAuth describes it):
/// RS256 over `{iss: client_email, scope, aud: token_uri, iat, exp}`. Pure: the time is the
/// caller's; the key never appears in an error or a log.
package struct PlayServiceAccount: Sendable {
    package static let scope = "https://www.googleapis.com/auth/androidpublisher"
    package let email: String
    package let keyId: String?
    package let tokenURI: String
    package let key: _RSA.Signing.PrivateKey

    package init(json: [UInt8]) throws(SignedProblem) {
        guard let document = try? JSONValue(parsing: json), let email = document["client_email"]?.asString,
              let pem = document["private_key"]?.asString, let tokenURI = document["token_uri"]?.asString else {
            throw SignedProblem("service_account", "not a service account key: client_email, private_key and token_uri are required")
        }
        guard let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) else {
            throw SignedProblem("service_account", "private_key is not a PEM RSA key of 2048 bits or more")
        }
        self.email = email
        self.keyId = document["private_key_id"]?.asString
        self.tokenURI = tokenURI
        self.key = key
    }

    /// The signed assertion the token URI exchanges for an access token, valid one hour.
    package func assertion(now: Int) throws -> String {
        var head: [(String, JSONValue)] = [("alg", .string("RS256")), ("typ", .string("JWT"))]
        if let keyId { head.append(("kid", .string(keyId))) }
        let claims: JSONValue = .object([("iss", .string(email)), ("scope", .string(Self.scope)), ("aud", .string(tokenURI)),
                                         ("iat", .int(now)), ("exp", .int(now + 3600))])
        let input = Base64.encodeURL(JSONValue.object(head).encoded) + "." + Base64.encodeURL(claims.encoded)
        let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64.encodeURL(Array(signature.rawRepresentation))
    }
}
