import Testing
@testable import PaywireModel
@testable import PaywireWire

/// The codecs of the records device and backend both handle (redemptions, offer signing): what
/// one side writes, the other reads back the same, and each refuses what the other would.
@Suite struct ContractCodecTests {
    private func parsed(_ text: String) -> JSONValue? { try? JSONParser.parse(Array(text.utf8)) }

    @Test func aRedemptionRequestReadsBackWhatTheDeviceWrote() throws {
        let request = RedemptionRequest(token: "tok_123", profileId: "Jos\u{e9}")
        #expect(try RedemptionRequest.decode(parsed: parsed(String(decoding: request.encode(), as: UTF8.self))) == request)
    }

    @Test(arguments: [
        ("not json", "the redemption request must be a JSON object"),
        (#"{"profile_id":"p"}"#, "token"),
        (#"{"token":"t"}"#, "profile_id"),
        (#"{"token":"","profile_id":"p"}"#, "token"),
        (#"{"token":"t","profile_id":""}"#, "profile_id"),
        (#"{"token":7,"profile_id":"p"}"#, "token"),
    ])
    func aRedemptionRequestWithoutItsTwoTextsIsRefusedNamingWhich(body: String, names: String) {
        do {
            _ = try RedemptionRequest.decode(parsed: parsed(body))
            Issue.record("\(body) was read")
        } catch {
            #expect(error.message.contains(names), "\(error.message)")
        }
    }

    @Test func aTokenLongerThanEitherSideTakesIsRefused() {
        let long = String(repeating: "a", count: RedemptionRequest.maxTokenBytes + 1)
        let exact = String(repeating: "a", count: RedemptionRequest.maxTokenBytes)
        #expect(throws: WireError.self) { try RedemptionRequest.decode(parsed: .object(JSONObject([("token", .string(long)), ("profile_id", .string("p"))]))) }
        #expect((try? RedemptionRequest.decode(parsed: .object(JSONObject([("token", .string(exact)), ("profile_id", .string("p"))])))) != nil)
    }

    @Test func aRedemptionAnswerReadsBackItsResultAndProfile() throws {
        for result in RedemptionResult.allCases {
            let bytes = RedemptionAnswer.encode(result: result, profileId: "p", profile: Array(#"{"access_levels":{}}"#.utf8))
            let (read, profile) = try RedemptionAnswer.decode(bytes)
            #expect(read == result)
            #expect(profile["access_levels"] == .object(JSONObject([])))
        }
    }

    @Test func aRedemptionAnswerWithAnUnknownResultOrNoProfileIsNotRead() {
        #expect(throws: WireError.self) { try RedemptionAnswer.decode(Array(#"{"result":"maybe","profile":{}}"#.utf8)) }
        #expect(throws: WireError.self) { try RedemptionAnswer.decode(Array(#"{"result":"redeemed"}"#.utf8)) }
        #expect(throws: WireError.self) { try RedemptionAnswer.decode(Array("[]".utf8)) }
    }

    @Test func anOfferSignRequestReadsBackWhatTheDeviceWrote() throws {
        for type in OfferType.allCases {
            let request = OfferSignRequest(profileId: "p", productId: "annual", offerId: "o1", offerType: type)
            #expect(try OfferSignRequest.decode(parsed: parsed(String(decoding: request.encode(), as: UTF8.self))) == request)
        }
    }

    @Test(arguments: [
        #"{"profile_id":"p","vendor_product_id":"a","offer_id":"o","offer_type":"promotional","extra":1}"#,
        #"{"profile_id":"p","vendor_product_id":"a","offer_id":"o","offer_type":"intro"}"#,
        #"{"profile_id":"p","vendor_product_id":"a","offer_id":"o"}"#,
        #"{"profile_id":"","vendor_product_id":"a","offer_id":"o","offer_type":"promotional"}"#,
        #"{"profile_id":"p","vendor_product_id":"a","offer_type":"win_back"}"#,
        "[]",
    ])
    func anOfferSignRequestOfAnotherShapeIsRefused(body: String) {
        #expect(throws: WireError.self) { try OfferSignRequest.decode(parsed: parsed(body)) }
    }

    @Test func anOfferSignatureReadsBackAndAPartialOneIsNot() {
        let signature = OfferSignature(keyId: "K1", nonce: "n-1", timestamp: 1_700_000_000_000, signature: "MEUC")
        #expect(OfferSignature.decode(signature.encode()) == signature)
        #expect(OfferSignature.decode(Array(#"{"key_id":"K1","nonce":"n","timestamp":1.5,"signature":"s"}"#.utf8)) == nil)
        #expect(OfferSignature.decode(Array(#"{"key_id":"","nonce":"n","timestamp":1,"signature":"s"}"#.utf8)) == nil)
    }
}
