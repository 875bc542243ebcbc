import Testing
@testable import PaywireModel
@testable import PaywireWire

/// The records that cross between the device and the backend: what one side writes, the other
/// reads, and the rule that refuses a record refuses it on both sides alike.
@Suite struct RecordContractTests {
    static let eventId = "0190b6e2-7c4a-7d3e-9f00-2b8c1e4a5f62"
    static let source = AnalyticsRecord.Source(installId: "i", sessionId: "s", platform: "linux", appVersion: nil, wrapper: ("unity", "1"))

    static func exposure(revision: Int? = 3, audience: String? = "All", paywallId: String? = "pw", paywallName: String? = "Paywall")
        -> Exposure {
        Exposure(placementId: "onboarding", audienceName: audience, revision: revision, abTestName: "t", variationId: "v",
                 paywallId: paywallId, paywallName: paywallName, placementAudienceVersionId: nil, holdout: false, forced: false)
    }

    static func encoded(_ exposure: Exposure, profileId: String = "p-1") -> [UInt8] {
        let header = AnalyticsRecord.Header(eventId: eventId, profileId: profileId, customerUserId: nil, createdAt: 1, seq: 1,
                                            name: Exposure.recordName)
        return AnalyticsRecord.encode(header, source: source, sdkVersion: "0.1.0") { exposure.write(to: &$0) }
    }

    @Test(arguments: [exposure(), exposure(revision: nil), exposure(audience: nil), exposure(paywallId: nil), exposure(paywallName: nil),
                      exposure(revision: nil, audience: nil, paywallId: nil, paywallName: nil)])
    func anExposureTheDeviceWritesIsOneTheBackendReads(exposure: Exposure) throws {
        try exposure.validate()
        let read = try AnalyticsRecord.decode(try JSONValue(parsing: Self.encoded(exposure)))
        #expect(read.exposure == exposure)
        #expect(read.header.seq == 1 && read.source.wrapper?.name == "unity")
    }

    @Test func aBatchOfKeptRecordsIsReadRecordByRecordWithItsText() throws {
        let bodies = [Self.encoded(Self.exposure()), Self.encoded(Self.exposure(revision: nil))]
        guard case .success(let batch) = EventBatch.decode(EventBatch.encode(bodies, droppedCount: 2)) else {
            Issue.record("the batch was refused")
            return
        }
        #expect(batch.dropped == 2)
        #expect(batch.items.map { Array($0.text.utf8) } == bodies)
    }

    @Test func aBadRecordRefusesTheBatchNamingItsEventIdAndMember() {
        var bad = Self.encoded(Self.exposure())
        bad = Array(String(decoding: bad, as: UTF8.self).replacing(#""revision":3"#, with: #""revision":"3""#).utf8)
        guard case .failure(.records(let message, let ids)) = EventBatch.decode(EventBatch.encode([bad], droppedCount: 0)) else {
            Issue.record("the batch was kept")
            return
        }
        #expect(ids == [Self.eventId])
        #expect(message.contains("params.revision"))
    }

    @Test(arguments: [("placement_id", ""), ("variation_id", ""), ("paywall_name", "a\u{0}b")])
    func anExposureBreakingARuleIsRefusedNamingTheMember(member: String, value: String) {
        let exposure = Exposure(placementId: member == "placement_id" ? value : "p", audienceName: nil, revision: nil, abTestName: "",
                                variationId: member == "variation_id" ? value : "v", paywallId: nil,
                                paywallName: member == "paywall_name" ? value : nil, placementAudienceVersionId: nil,
                                holdout: false, forced: false)
        #expect(throws: WireError.self) { try exposure.validate() }
        do { try exposure.validate() } catch { #expect(error.details["field"] == .string("params.\(member)")) }
    }

    @Test func aRecordWhoseParamsHoldNULIsRefusedByTheDeviceAndTheBackend() throws {
        let header = AnalyticsRecord.Header(eventId: Self.eventId, profileId: "p", customerUserId: nil, createdAt: 1, seq: 1, name: "paywall_view_did_appear")
        let bytes = AnalyticsRecord.encode(header, source: Self.source, sdkVersion: "1") { $0.member("product_id", "a\u{0}") }
        #expect(throws: WireError.self) { try AnalyticsRecord.validate(encoded: bytes) }
        #expect(throws: WireError.self) { try AnalyticsRecord.decode(try JSONValue(parsing: bytes)) }
        let escaped = AnalyticsRecord.encode(header, source: Self.source, sdkVersion: "1") { $0.member("path", #"C:\u0000"#) }
        try AnalyticsRecord.validate(encoded: escaped)
        let backslashes = AnalyticsRecord.encode(header, source: Self.source, sdkVersion: "1") { $0.member("path", "C:\\") }
        try AnalyticsRecord.validate(encoded: backslashes)
    }

    @Test func aPurchaseClaimReadsBackAsWritten() throws {
        let transaction = TransactionClaim(transactionId: "t", originalTransactionId: "t", vendorProductId: "m", verification: "",
                                           purchasedAt: 5, environment: .sandbox, store: .playStore, signedTransaction: nil)
        let claim = PurchaseClaim(eventId: Self.eventId, profileId: "p", customerUserId: "c", transaction: transaction,
                                  price: .init(amount: JSONNumber(validatedText: "9.99"), currencyCode: "EUR"), state: .pending,
                                  productType: .autorenewable, observerMode: false,
                                  attribution: PurchaseAttribution(placementId: "x", audienceName: nil, abTestName: "", variationId: "v",
                                                                   paywallId: nil, paywallName: ""))
        #expect(try PurchaseClaim.decode(claim.encode()) == claim)
    }

    @Test(arguments: [(#""store":"play_store""#, #""store":"""#, "store"),
                      (#""purchased_at":5"#, #""purchased_at":-1"#, "purchased_at"),
                      (#""environment":"sandbox""#, #""environment":"Sandbox""#, "environment"),
                      (#""state":"purchased""#, #""state":"done""#, "state")])
    func aClaimBreakingARuleIsRefusedNamingTheMember(valid: String, broken: String, member: String) throws {
        let body = #"{"event_id":"\#(Self.eventId)","profile_id":"p","transaction_id":"t","original_transaction_id":"t","vendor_product_id":"m","verification":"","purchased_at":5,"environment":"sandbox","store":"play_store","state":"purchased","observer_mode":false}"#
        _ = try PurchaseClaim.decode(Array(body.utf8))
        do throws(WireError) {
            _ = try PurchaseClaim.decode(Array(body.replacing(valid, with: broken).utf8))
            Issue.record("\(member) was kept")
        } catch {
            #expect(error.details["field"] == .string(member))
        }
    }

    @Test func aPriceTheBackendWouldRefuseIsNotKeepable() {
        #expect(PurchaseClaim.Price(amount: JSONNumber(validatedText: "0.99"), currencyCode: "USD").isKeepable)
        #expect(!PurchaseClaim.Price(amount: JSONNumber(validatedText: "-1"), currencyCode: "USD").isKeepable)
        #expect(!PurchaseClaim.Price(amount: JSONNumber(validatedText: "1"), currencyCode: "EURO").isKeepable)
        #expect(!PurchaseClaim.Price(amount: JSONNumber(validatedText: "1"), currencyCode: "").isKeepable)
    }

    @Test func anIdentityRequestNamesThePathsProfile() throws {
        let request = Identity.Request(eventId: Self.eventId, profileId: "p-1", customerUserId: "c")
        #expect(try Identity.Request.decode(request.encode(), pathProfileId: "p-1") == request)
        #expect(throws: WireError.self) { try Identity.Request.decode(request.encode(), pathProfileId: "p-2") }
        let long = Identity.Request(eventId: Self.eventId, profileId: "p-1", customerUserId: String(repeating: "c", count: 257))
        #expect(throws: WireError.self) { try long.validate() }
    }

    /// The identity rule: ids in NFC only, compared byte for byte. Swift's `==` takes the
    /// decomposed twin for the composed id; the rule never lets the two meet.
    @Test func anIdNotInNormalizationFormCIsRefusedAndIdsCompareAsBytes() throws {
        let composed = "Jos\u{e9}-x", decomposed = "Jose\u{301}-x"
        #expect(composed == decomposed && !Identity.same(composed, decomposed) && Identity.same(composed, "Jos\u{e9}-x"))
        try Identity.checkProfileId(composed, "profile_id")
        try Identity.checkCustomerUserId("\u{c5}ngstr\u{f6}m", "customer_user_id")
        for id in [decomposed, "\u{212B}", "a\u{301}\u{316}", "\u{1100}\u{1161}"] {
            #expect(throws: WireError.self) { try Identity.checkProfileId(id, "profile_id") }
            #expect(throws: WireError.self) { try Identity.checkCustomerUserId(id, "customer_user_id") }
        }
        let request = Identity.Request(eventId: Self.eventId, profileId: composed, customerUserId: "c")
        #expect(throws: WireError.self) { try Identity.Request.decode(request.encode(), pathProfileId: decomposed) }
        let twin = Identity.Request(eventId: Self.eventId, profileId: decomposed, customerUserId: "c")
        #expect(throws: WireError.self) { try Identity.Request.decode(twin.encode(), pathProfileId: composed) }
        #expect(try Identity.Request.decode(request.encode(), pathProfileId: composed) == request)
    }

    @Test func profileDataReadsBackAsWrittenAndRefusesWhatTheContractTypes() throws {
        let attributes = ProfileDataRecord(eventId: Self.eventId, profileId: "p", customerUserId: nil, kind: .attributes,
                                           body: .object(JSONObject([("gender", .string("female")), ("custom_attributes", .object(JSONObject([("n", .number(JSONNumber(1)))])))])))
        try attributes.validate()
        let read = try ProfileDataRecord.decode(attributes.encode(), kind: .attributes, pathProfileId: "p")
        #expect(read.body == attributes.body)
        let wrong = ProfileDataRecord(eventId: Self.eventId, profileId: "p", customerUserId: nil, kind: .attributes,
                                      body: .object(JSONObject([("gender", .string("f"))])))
        #expect(throws: WireError.self) { try wrong.validate() }
        let attribution = ProfileDataRecord(eventId: Self.eventId, profileId: "p", customerUserId: nil, source: "adjust",
                                            attribution: JSONObject([("campaign", .string("x"))]), networkUserId: "n")
        #expect(try ProfileDataRecord.decode(attribution.encode(), kind: .attribution, pathProfileId: nil).body == attribution.body)
    }

    @Test func eachStoreSpellsItsEnvironmentItsWayAndTheWireOneWay() {
        #expect(StoreEnvironment(appStore: "Production") == .production)
        for name in ["Sandbox", "Xcode", "LocalTesting"] { #expect(StoreEnvironment(appStore: name) == .sandbox) }
        #expect(StoreEnvironment(playTestPurchase: true) == .sandbox)
        #expect(StoreEnvironment(stripeLivemode: false) == .sandbox)
        #expect(StoreEnvironment.allCases.map(\.rawValue) == ["sandbox", "production"])
        #expect(StoreName(rawValue: "play_store") == .playStore && StoreName(rawValue: "galaxy").rawValue == "galaxy")
    }

    /// The spec's `maxLength` counts characters: a limit in bytes would refuse what the spec
    /// allows (64 characters of a non-Latin script are more than 64 bytes).
    @Test func lengthsAreCountedInCharactersAsTheSpecCountsThem() throws {
        try RecordRules.check(String(repeating: "ä", count: 64), "store", maxLength: 64)
        try RecordRules.check(String(repeating: "🛒", count: 256), "transaction_id")
        #expect(throws: WireError.self) { try RecordRules.check(String(repeating: "ä", count: 65), "store", maxLength: 64) }
        #expect(throws: WireError.self) { try RecordRules.check(String(repeating: "a", count: 257), "transaction_id") }
        #expect(throws: WireError.self) { try RecordRules.check("", "transaction_id") }
    }
}
