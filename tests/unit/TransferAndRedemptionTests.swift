import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

@Suite struct RedemptionLinkTests {
    @Test func theTokenIsTheQueryMemberPercentDecodedWhateverTheScheme() throws {
        #expect(try RedemptionLink.token(in: "paywire://redeem?token=Ab-_c%2Bd&src=email#top") == "Ab-_c+d")
        #expect(try RedemptionLink.token(in: "https://example.com/redeem?src=x&token=abc") == "abc")
        #expect(try RedemptionLink.token(in: "myapp:redeem?token=a+b") == "a b")
    }

    @Test(arguments: ["paywire://redeem", "paywire://redeem?src=1", "paywire://redeem?token=", "paywire://redeem?token=a&token=b",
                      "paywire://redeem?token=%2", "paywire://redeem?token=%G1", "paywire://redeem?token=%FF", "paywire://redeem#?token=a"])
    func aLinkWithoutOneClearTokenIsRefusedNamingUrl(url: String) {
        #expect(throws: WireError.self) { try RedemptionLink.token(in: url) }
        do { _ = try RedemptionLink.token(in: url) } catch { #expect(error.details["field"] == .string("url")) }
    }

    @Test func aTokenLongerThanTheBackendTakesIsRefused() {
        let long = String(repeating: "a", count: RedemptionLink.maxTokenBytes + 1)
        #expect(throws: WireError.self) { try RedemptionLink.token(in: "paywire://redeem?token=" + long) }
        #expect(throws: WireError.self) { try RedemptionLink.token(in: "paywire://redeem?token=a&pad=" + String(repeating: "b", count: 5000)) }
    }
}

@Suite struct RestoreAnswerTests {
    private func answer(_ text: String) throws -> RestoreAnswer {
        try RestoreAnswer.decode(Array(#"{"profile":{},"#.utf8) + Array(text.dropFirst().utf8))
    }

    @Test func restoredEntriesNamingAnOwnerAreTransfersToThisProfile() throws {
        let read = try answer(#"{"restored":[{"transaction_id":"t1","vendor_product_id":"m","from_profile_id":"p-1"},{"transaction_id":"t2","vendor_product_id":"y"}],"refused":[]}"#)
        #expect(read.restored?.map(\.vendorProductId) == ["m", "y"])
        #expect(read.transfers(to: "p-2") == [Transfer(transactionId: "t1", vendorProductId: "m", fromProfileId: "p-1", toProfileId: "p-2")])
        #expect(Purchases.keptByOwner(read) == nil)
    }

    @Test func onlyRefusalsKeptWithTheOwnerFailTheRestore() throws {
        let kept = try answer(#"{"restored":[],"refused":[{"transaction_id":"t1","code":"belongs_to_another_profile","message":"x"},{"transaction_id":"t2","code":"unknown_product","message":"y"}]}"#)
        #expect(Purchases.keptByOwner(kept)?.code == .belongsToAnotherProfile)
        #expect(Purchases.keptByOwner(kept)?.details["transaction_ids"] == .array([.string("t1")]))
        let partly = try answer(#"{"restored":[{"transaction_id":"t3","vendor_product_id":"m"}],"refused":[{"transaction_id":"t1","code":"belongs_to_another_profile","message":"x"}]}"#)
        #expect(Purchases.keptByOwner(partly) == nil)
        let otherwise = try answer(#"{"restored":[],"refused":[{"transaction_id":"t2","code":"unknown_product","message":"y"}]}"#)
        #expect(Purchases.keptByOwner(otherwise) == nil)
    }

    @Test func anAnswerWithoutAProfileIsDecodingFailed() {
        #expect(throws: WireError(.decodingFailed, "the backend's restore answer has no profile")) {
            try RestoreAnswer.decode(Array(#"{"restored":[]}"#.utf8))
        }
    }
}

@Suite struct IdentityAnswerTests {
    @Test func theAnswerNamesTheCustomersProfileAndWhatMoved() throws {
        let body = #"{"profile_id":"p-cus","profile":{"access_levels":{},"subscriptions":{},"non_subscriptions":{},"custom_attributes":{},"is_test_user":false},"transferred":[{"transaction_id":"t1","vendor_product_id":"m","from_profile_id":"p-anon","to_profile_id":"p-cus"},{"transaction_id":"broken"}]}"#
        let answer = try Identity.Answer.decode(Array(body.utf8))
        #expect(answer.profileId == "p-cus")
        #expect(answer.transferred == [Transfer(transactionId: "t1", vendorProductId: "m", fromProfileId: "p-anon", toProfileId: "p-cus")])
    }

    @Test(arguments: [#"{"profile":{}}"#, #"{"profile_id":"","profile":{}}"#, #"{"profile_id":"p"}"#, "[]"])
    func anAnswerWithoutProfileIdOrProfileIsDecodingFailed(body: String) {
        #expect(throws: WireError.self) { try Identity.Answer.decode(Array(body.utf8)) }
        do { _ = try Identity.Answer.decode(Array(body.utf8)) } catch { #expect(error.code == .decodingFailed) }
    }

    @Test func joiningKeepsWhatTheDeviceSaidAboutTheUserAndNothingElse() {
        var profile = Profile(profileId: "p-anon", customerUserId: "cus-1")
        profile.email = "ada@example.com"
        profile.analyticsDisabled = true
        profile.crossPlacementAssignments["t"] = "a"
        let joined = ProfileStore.joined(profile, profileId: "p-cus", customerUserId: "cus-1")
        #expect(joined.profileId == "p-cus")
        #expect(joined.customerUserId == "cus-1")
        #expect(joined.email == "ada@example.com")
        #expect(joined.analyticsDisabled)
        #expect(joined.crossPlacementAssignments.isEmpty)
    }
}
