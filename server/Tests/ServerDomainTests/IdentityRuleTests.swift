import Crypto
import Foundation
import PaywireModel
import PaywireWire
@testable import ServerDomain
import Testing
@testable import paywire_server

/// The identity rule where the server compares ids (docs/operations/security.md, F2): the door
/// tells names apart by their bytes, and an identity token's `sub` must be the claimed customer
/// byte for byte, so a decomposed twin that Swift's `==` takes for the id proves nothing.
@Suite struct IdentityRuleTests {
    private static let composed = "Jos\u{e9}-x", decomposed = "Jose\u{301}-x"
    private static let secret = "an-identity-secret-of-at-least-32-bytes"

    @Test func theDoorTellsTwinsApartByTheirBytes() {
        let body = Array(#"{"profile_id":"Jos\u00e9-x"}"#.utf8)
        let parsed = try? JSONValue(parsing: body)
        #expect(ProfileDoor.named(pathProfileId: Self.decomposed, parsed: parsed) == [Self.decomposed, Self.composed])
        #expect(ProfileDoor.named(pathProfileId: Self.composed, parsed: parsed) == [Self.composed])
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// An HS256 token the app's backend signs for `subject`, valid around `now`.
    private static func token(subject: String, now: Int) -> String {
        let head = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let claims = base64URL(Data(#"{"sub":"\#(subject)","aud":"suite","exp":\#(now + 600)}"#.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(head).\(claims)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "\(head).\(claims).\(base64URL(Data(mac)))"
    }

    @Test func aTokenForATwinOfTheCustomerProvesNothing() throws {
        let verifier = try IdentityTokenVerifier(secrets: [Self.secret], jwks: nil, audience: "suite")
        let now = 1_800_000_000
        #expect(verifier.refusal(token: Self.token(subject: Self.composed, now: now), customerUserId: Self.composed, now: now) == nil)
        #expect(verifier.refusal(token: Self.token(subject: Self.decomposed, now: now), customerUserId: Self.composed, now: now) != nil)
    }
}
