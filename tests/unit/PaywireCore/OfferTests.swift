import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

@Suite struct OfferTests {
    private let offer = PurchaseOffer(kind: .winBack, id: "wb-1")

    private func response(_ status: Int, _ body: String) -> HTTPOutcome {
        .response(HTTPResponse(status: status, headers: [], body: Array(body.utf8)))
    }

    private func interpret(_ outcome: HTTPOutcome) -> Result<SignedOffer, WireError> {
        OfferSigning.interpret(outcome, offer: offer, productId: "monthly", profileId: "Profile-ABC")
    }

    @Test func aSignatureBecomesTheSignedOfferWithTheLowercasedUsername() throws {
        let result = interpret(response(200, #"{"key_id":"K1","nonce":"n-1","timestamp":1760000000000,"signature":"c2ln"}"#))
        let signed = try result.get()
        #expect(signed == SignedOffer(offer: offer, keyId: "K1", nonce: "n-1", timestamp: 1760000000000, signature: "c2ln",
                                      applicationUsername: "profile-abc"))
    }

    @Test func aRefusalIsOfferNotEligibleNamingTheOffer() {
        guard case .failure(let error) = interpret(response(403, #"{"error":{"code":"offer_not_eligible","message":"no"}}"#)) else {
            Issue.record("expected a refusal"); return
        }
        #expect(error.code == .purchaseFailed)
        #expect(error.details["reason"] == .string("offer_not_eligible"))
        #expect(error.details["offer_type"] == .string("win_back"))
        #expect(error.details["offer_id"] == .string("wb-1"))
        #expect(error.details["product_id"] == .string("monthly"))
    }

    @Test func everyOtherFailureIsASigningFailureWithItsCause() {
        let cases: [(HTTPOutcome, String)] = [
            (response(403, #"{"error":{"code":"forbidden"}}"#), "forbidden"),
            (response(500, "oops"), "http_500"),
            (response(200, #"{"key_id":"K1"}"#), "decoding_failed"),
            (.failed(code: "connect_failed", message: "no route"), "connect_failed"),
            (.timedOut, "timeout"),
        ]
        for (outcome, cause) in cases {
            guard case .failure(let error) = interpret(outcome) else { Issue.record("expected a failure for \(cause)"); continue }
            #expect(error.code == .purchaseFailed)
            #expect(error.details["reason"] == .string("offer_signing_failed"))
            #expect(error.details["underlying_error"] == .string(cause))
        }
    }

    @Test func aProductReferenceNamesWinBackBeforePromotional() throws {
        var reference = ProductReference(vendorProductId: "monthly")
        #expect(PurchaseOffer(reference) == nil)
        reference.promotionalOfferId = "promo"
        #expect(PurchaseOffer(reference) == PurchaseOffer(kind: .promotional, id: "promo"))
        reference.winBackOfferId = "wb"
        #expect(PurchaseOffer(reference) == PurchaseOffer(kind: .winBack, id: "wb"))
    }

    @Test func theOfferParamNeedsAKnownTypeAndAnId() throws {
        func parse(_ text: String) throws(WireError) -> PurchaseOffer {
            guard case .object(let object) = (try? JSONParser.parse(Array(text.utf8))) ?? .null else { throw WireError(.internal, "test") }
            return try PurchaseOffer(Fields(object, path: "offer"))
        }
        #expect(try parse(#"{"type":"promotional","id":"p"}"#) == PurchaseOffer(kind: .promotional, id: "p"))
        #expect(throws: WireError.self) { try parse(#"{"type":"intro","id":"p"}"#) }
        #expect(throws: WireError.self) { try parse(#"{"id":"p"}"#) }
        #expect(throws: WireError.self) { try parse(#"{"type":"win_back","id":""}"#) }
    }
}
