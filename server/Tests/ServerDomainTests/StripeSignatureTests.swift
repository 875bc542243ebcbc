@testable import ServerDomain
import Testing

/// Stripe's scheme as its docs describe it, checked against an HMAC computed outside Swift
/// (Python's hmac module): a signature the server accepts is one Stripe would have made.
@Suite struct StripeSignatureTests {
    private let body = Array(#"{"id":"evt_1","type":"invoice.paid"}"#.utf8)
    /// hmac.new(b"whsec_test_secret", b"1700000000." + body, hashlib.sha256).hexdigest()
    private let known = "46dc069361a7691082640523fa33fe5d6c8c88d5f5e257cdf8cf11539d166595"
    private let signature = StripeSignature(secrets: ["whsec_test_secret"])

    @Test func aSignatureComputedAsStripeDocumentsIsAccepted() throws {
        #expect(try signature.verify(header: "t=1700000000,v1=\(known)", body: body, now: 1_700_000_000) == 1_700_000_000)
    }

    @Test func theToleranceIsFiveMinutesEitherWay() throws {
        let header = "t=1700000000,v1=\(known)"
        #expect(try signature.verify(header: header, body: body, now: 1_700_000_300) == 1_700_000_000)
        #expect(try signature.verify(header: header, body: body, now: 1_699_999_700) == 1_700_000_000)
        #expect(throws: StripeSignature.Problem.self) { try signature.verify(header: header, body: body, now: 1_700_000_301) }
        #expect(throws: StripeSignature.Problem.self) { try signature.verify(header: header, body: body, now: 1_699_999_699) }
    }

    @Test func aTamperedBodyOrAnotherSecretIsRefused() {
        let header = "t=1700000000,v1=\(known)"
        #expect(throws: StripeSignature.Problem.self) {
            try signature.verify(header: header, body: Array(#"{"id":"evt_2","type":"invoice.paid"}"#.utf8), now: 1_700_000_000)
        }
        #expect(throws: StripeSignature.Problem.self) {
            try StripeSignature(secrets: ["whsec_other"]).verify(header: header, body: body, now: 1_700_000_000)
        }
    }

    @Test func anyV1MatchingAnySecretIsEnoughWhileASecretRotates() throws {
        let rotating = StripeSignature(secrets: ["whsec_new", "whsec_test_secret"])
        let header = "t=1700000000,v1=\(String(repeating: "0", count: 64)),v0=ignored,v1=\(known)"
        #expect(try rotating.verify(header: header, body: body, now: 1_700_000_000) == 1_700_000_000)
    }

    @Test(arguments: ["", "v1=\(String(repeating: "a", count: 64))", "t=1700000000", "t=1700000000,t=1700000001,v1=00", "t=soon,v1=00",
                      "t=1700000000,v1=not-hex"])
    func aHeaderWithoutOneTimestampAndAV1SignatureIsRefused(header: String) {
        #expect(throws: StripeSignature.Problem.self) { try signature.verify(header: header, body: body, now: 1_700_000_000) }
    }

    @Test func noProblemNamesTheSecret() {
        do {
            _ = try signature.verify(header: "t=1700000000,v1=\(String(repeating: "0", count: 64))", body: body, now: 1_700_000_000)
            Issue.record("a wrong signature was accepted")
        } catch {
            #expect(!error.message.contains("whsec"))
            #expect(!error.message.contains(known))
        }
    }
}
