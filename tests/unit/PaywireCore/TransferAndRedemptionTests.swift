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
        #expect(Purchases.keptByOwner(RestoreAnswers().adding(read, transferred: [])) == nil)
    }

    @Test func onlyRefusalsKeptWithTheOwnerFailTheRestore() throws {
        let kept = try answer(#"{"restored":[],"refused":[{"transaction_id":"t1","code":"belongs_to_another_profile","message":"x"},{"transaction_id":"t2","code":"unknown_product","message":"y"}]}"#)
        #expect(Purchases.keptByOwner(RestoreAnswers().adding(kept, transferred: []))?.code == .belongsToAnotherProfile)
        #expect(Purchases.keptByOwner(RestoreAnswers().adding(kept, transferred: []))?.details["transaction_ids"] == .array([.string("t1")]))
        let partly = try answer(#"{"restored":[{"transaction_id":"t3","vendor_product_id":"m"}],"refused":[{"transaction_id":"t1","code":"belongs_to_another_profile","message":"x"}]}"#)
        #expect(Purchases.keptByOwner(RestoreAnswers().adding(partly, transferred: [])) == nil)
        let otherwise = try answer(#"{"restored":[],"refused":[{"transaction_id":"t2","code":"unknown_product","message":"y"}]}"#)
        #expect(Purchases.keptByOwner(RestoreAnswers().adding(otherwise, transferred: [])) == nil)
    }

    @Test func aRestoreSentInSeveralClaimsSettlesOnAllTheirAnswers() throws {
        let first = try answer(#"{"restored":[{"transaction_id":"t1","vendor_product_id":"m"}],"refused":[]}"#)
        let kept = try answer(#"{"restored":[],"refused":[{"transaction_id":"t2","code":"belongs_to_another_profile","message":"x"}]}"#)
        let both = RestoreAnswers().adding(first, transferred: []).adding(kept, transferred: [])
        #expect(both.restoredProductIds == ["m"] && both.kept == ["t2"] && both.listsRestored)
        #expect(Purchases.keptByOwner(both) == nil, "something was restored, in another claim")
        let keptTwice = RestoreAnswers().adding(kept, transferred: []).adding(kept, transferred: [])
        #expect(Purchases.keptByOwner(keptTwice)?.details["transaction_ids"] == .array([.string("t2"), .string("t2")]))
        let unlisted = try RestoreAnswer.decode(Array(#"{"profile":{}}"#.utf8))
        #expect(!RestoreAnswers().adding(first, transferred: []).adding(unlisted, transferred: []).listsRestored)
    }

    @Test func aClaimCarriesAtMostAHundredTransactionsAndMoreIsRefusedBeforeAnyIsRead() throws {
        let transaction = #"{"transaction_id":"t","original_transaction_id":"t","vendor_product_id":"m","verification":"v","purchased_at":1,"environment":"sandbox","store":"test"}"#
        func body(_ items: [String]) -> [UInt8] {
            Array(#"{"event_id":"0b7c5a52-4d4c-4c1e-9a39-7a0b9c1d2e3f","profile_id":"p","transactions":["#.utf8) + Array(items.joined(separator: ",").utf8) + Array("]}".utf8)
        }
        #expect(try RestoreClaim.decode(body(Array(repeating: transaction, count: 100))).transactions.count == 100)
        #expect(throws: RestoreClaim.tooManyTransactions) { try RestoreClaim.decode(body(Array(repeating: transaction, count: 101))) }
        #expect(throws: RestoreClaim.tooManyTransactions, "the count is checked before any transaction is read") {
            try RestoreClaim.decode(body(Array(repeating: "{}", count: 101)))
        }
        let made = try RestoreClaim.decode(body([transaction]))
        let over = RestoreClaim(eventId: made.eventId, profileId: "p", customerUserId: nil,
                                transactions: Array(repeating: made.transactions[0], count: 101))
        #expect(throws: RestoreClaim.tooManyTransactions) { try over.validate() }
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
