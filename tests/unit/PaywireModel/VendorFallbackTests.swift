import Testing
@testable import PaywireModel
@testable import PaywireWire

/// The vendor's fallback file (Adapty's dashboard export, format 8), written here by hand in its
/// shape: read into the placements a Paywire bundle holds.
@Suite struct VendorFallbackTests {
    /// A vendor file of `placements` (id: placement JSON), with `extraMeta` members in its header.
    static func file(_ placements: [(String, String)], version: Int = 8, createdAt: Int = 1_747_759_592_106,
                     extraMeta: String = "") -> [UInt8] {
        let data = placements.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ")
        return Array(#"{"data": {\#(data)}, "meta": {"version": \#(version), "response_created_at": \#(createdAt)\#(extraMeta)}}"#.utf8)
    }

    static func placement(_ id: String, audienceVersion: String = "pav-1", variations: String, extraMeta: String = "") -> String {
        #"{"meta": {"placement": {"developer_id": "\#(id)", "audience_name": "All Users", "placement_audience_version_id": "\#(audienceVersion)", "revision": 4, "ab_test_name": "annual_first"\#(extraMeta)}}, "data": [\#(variations)]}"#
    }

    static func paywall(_ variationId: String, weight: Int, products: String = "[]", remoteConfig: String = "null",
                        cross: String = "null") -> String {
        #"{"variation_id": "\#(variationId)", "paywall_id": "pw-\#(variationId)", "paywall_name": "Paywall \#(variationId)", "products": \#(products), "custom_payload": null, "remote_config": \#(remoteConfig), "web_purchase_url": null, "weight": \#(weight), "paywall_builder": null, "cross_placement_info": \#(cross)}"#
    }

    static func onboarding(_ variationId: String, weight: Int) -> String {
        #"{"variation_id": "\#(variationId)", "onboarding_id": "ob-\#(variationId)", "onboarding_name": "Onboarding \#(variationId)", "onboarding_builder": {"config_url": "https://builder.test/\#(variationId)", "lang": "en"}, "remote_config": null, "cross_placement_info": null, "weight": \#(weight)}"#
    }

    static func product(_ id: String, consumable: Bool = false, promotionalOffer: String? = nil, eligible: Bool = false,
                        winBackOffer: String? = nil) -> String {
        func text(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "null" }
        return #"{"title": "T", "is_consumable": \#(consumable), "adapty_product_id": "ad-\#(id)", "vendor_product_id": "\#(id)", "promotional_offer_id": \#(text(promotionalOffer)), "win_back_offer_id": \#(text(winBackOffer)), "introductory_offer_eligibility": true, "promotional_offer_eligibility": \#(eligible), "timestamp": 1, "base_plan_id": null, "offer_id": null}"#
    }

    @Test func placementsAreFiledByTheKindTheirVariationsServe() throws {
        let bundle = try FallbackBundle.load(Self.file([
            ("main", Self.placement("main", variations: Self.paywall("a", weight: 100))),
            ("welcome", Self.placement("welcome", variations: Self.onboarding("o", weight: 100))),
        ]))
        #expect(bundle.format == .adapty)
        #expect(bundle.formatVersion == 8)
        #expect(bundle.responseCreatedAt == 1_747_759_592_106)
        #expect(Set(bundle.paywalls.ids) == ["main"])
        #expect(Set(bundle.onboardings.ids) == ["welcome"])
    }

    @Test func placementMetaBecomesTheAudienceAndVariationsKeepTheirFields() throws {
        let products = "[\(Self.product("monthly")), \(Self.product("coins", consumable: true)), "
            + "\(Self.product("annual", promotionalOffer: "promo", eligible: true, winBackOffer: "back")), "
            + "\(Self.product("weekly", promotionalOffer: "not-eligible"))]"
        let bundle = try FallbackBundle.load(Self.file([
            ("main", Self.placement("main", variations: Self.paywall("a", weight: 30, products: products,
                                                                   remoteConfig: #"{"lang": "de", "data": "{\"title\":\"Hallo\"}"}"#)
                                    + ", " + Self.paywall("b", weight: 70))),
        ]))
        let placement = try #require(try bundle.paywalls.placement("main"))
        let audience = try #require(placement.audiences.first)
        #expect(placement.audiences.count == 1 && audience.rule == nil)
        #expect(audience.name == "All Users" && audience.revision == 4 && audience.abTestName == "annual_first")
        #expect(audience.placementAudienceVersionId == "pav-1" && audience.crossPlacementTestId == nil)
        let variation = try #require(audience.variations.first)
        #expect(variation.variationId == "a" && variation.paywallId == "pw-a" && variation.paywallName == "Paywall a" && variation.weight == 30)
        #expect(variation.productIds == ["monthly", "coins", "annual", "weekly"])
        #expect(variation.products[0].productType == nil && variation.products[0].promotionalOfferId == nil)
        #expect(variation.products[1].productType == .consumable)
        #expect(variation.products[2].promotionalOfferId == "promo" && variation.products[2].winBackOfferId == "back")
        #expect(variation.products[3].promotionalOfferId == nil)  // promotional_offer_eligibility false
        #expect(variation.products.allSatisfy { $0.accessLevelId == nil })
        #expect(variation.remoteConfigs == [RemoteConfig(lang: "de", data: #"{"title":"Hallo"}"#)])
        #expect(variation.builder == nil && variation.crossPlacementGroup == nil)
        // The file's one localization answers whatever locale is asked.
        #expect(placement.defaultLocale == "de")
    }

    @Test func anOnboardingServesItsBuilderURL() throws {
        let bundle = try FallbackBundle.load(Self.file([
            ("welcome", Self.placement("welcome", variations: Self.onboarding("o1", weight: 50) + ", " + Self.onboarding("o2", weight: 50))),
        ]))
        let variation = try #require(try bundle.onboardings.placement("welcome")?.audiences.first?.variations.last)
        #expect(variation.onboardingId == "ob-o2" && variation.onboardingName == "Onboarding o2")
        #expect(variation.url == "https://builder.test/o2" && !variation.recordEmailOnProfile)
        #expect(try bundle.paywalls.placement("welcome") == nil)
    }

    @Test func theSameVariationsChooseAsAPaywireBundleDoes() throws {
        let vendor = try FallbackBundle.load(Self.file([
            ("main", Self.placement("main", audienceVersion: "shared-v3",
                                    variations: [("a", 20), ("b", 30), ("c", 50)].map { Self.paywall($0.0, weight: $0.1) }.joined(separator: ", "))),
        ]))
        let paywire = try FallbackBundle.load(Array(#"""
            {"format_version": 1, "response_created_at": 1, "placements": {"main": {"placement_audience_version_id": "shared-v3",
            "variations": [{"variation_id": "a", "paywall_id": "pw-a", "weight": 20, "products": []},
            {"variation_id": "b", "paywall_id": "pw-b", "weight": 30, "products": []},
            {"variation_id": "c", "paywall_id": "pw-c", "weight": 50, "products": []}]}}}
            """#.utf8))
        let fromVendor = try #require(try vendor.paywalls.placement("main"))
        let fromPaywire = try #require(try paywire.paywalls.placement("main"))
        let context = AudienceContext(customAttributes: JSONObject(), language: "en", activeAccessLevels: [])
        var seen = Set<String>()
        for index in 0..<60 {
            let profileId = "profile-\(index)"
            let chosen = try #require(try Selection(placement: fromVendor, profileId: profileId, locale: nil, responseCreatedAt: 1, context: context)).variation.variationId
            let reference = try #require(try Selection(placement: fromPaywire, profileId: profileId, locale: nil, responseCreatedAt: 1, context: context)).variation.variationId
            #expect(chosen == reference)
            seen.insert(chosen)
        }
        #expect(seen == ["a", "b", "c"])
    }

    @Test func crossPlacementMapsGiveEveryPlacementOfTheTestOneIdAndTheSameGroups() throws {
        func cross(_ first: String, _ second: String) -> String {
            #"{"placement_with_variation_map": {"second": "\#(second)", "first": "\#(first)"}}"#
        }
        let bundle = try FallbackBundle.load(Self.file([
            ("first", Self.placement("first", variations: Self.paywall("f1", weight: 50, cross: cross("f1", "s1")) + ", "
                                                         + Self.paywall("f2", weight: 50, cross: cross("f2", "s2")))),
            ("second", Self.placement("second", variations: Self.paywall("s2", weight: 50, cross: cross("f2", "s2")) + ", "
                                                           + Self.paywall("s1", weight: 50, cross: cross("f1", "s1")))),
        ]))
        let first = try #require(try bundle.paywalls.placement("first")?.audiences.first)
        let second = try #require(try bundle.paywalls.placement("second")?.audiences.first)
        #expect(first.crossPlacementTestId != nil && first.crossPlacementTestId == second.crossPlacementTestId)
        #expect(first.variations.map(\.crossPlacementGroup) == ["f1", "f2"])
        #expect(second.variations.map(\.crossPlacementGroup) == ["f2", "f1"])
        // A profile given s2's group in "second" keeps it in "first".
        let context = AudienceContext(customAttributes: JSONObject(), language: "en", activeAccessLevels: [])
        let testId = try #require(first.crossPlacementTestId)
        let firstPlacement = try #require(try bundle.paywalls.placement("first"))
        let kept = try #require(try Selection(placement: firstPlacement, profileId: "any", locale: nil,
                                              responseCreatedAt: 1, context: context, crossPlacementAssignments: [testId: "f2"]))
        #expect(kept.variation.variationId == "f2")
    }

    @Test func variationsOfOnePlacementNamingDifferentTestsAreRefused() throws {
        let bundle = try FallbackBundle.load(Self.file([
            ("first", Self.placement("first", variations:
                Self.paywall("f1", weight: 50, cross: #"{"placement_with_variation_map": {"first": "f1", "second": "s1"}}"#) + ", "
                + Self.paywall("f2", weight: 50, cross: #"{"placement_with_variation_map": {"first": "f2", "third": "t2"}}"#))),
        ]))
        let error = try #require(throws: WireError.self) { try bundle.paywalls.placement("first") }
        #expect(error.code == .invalidFallback && error.details["field"] == .string("data.first.data"))
    }

    @Test(arguments: [(7, 8, "file", "download a new fallback file"), (12, 11, "library", "update Paywire")])
    func aFileOfAnotherVersionSaysWhichSideIsOlder(_ version: Int, _ nearest: Int, _ older: String, _ remedy: String) throws {
        let error = try #require(throws: WireError.self) {
            try FallbackBundle.load(Self.file([], version: version))
        }
        #expect(error.code == .wrongFallbackVersion)
        #expect(error.message.contains(remedy) && error.message.contains("\(version)") && error.message.contains("8 to 11"))
        #expect(error.details["found"] == .number(JSONNumber(version)) && error.details["expected"] == .number(JSONNumber(nearest)))
        #expect(error.details["older"] == .string(older) && error.details["format"] == .string("adapty"))
    }

    @Test(arguments: 8...11)
    func everyVersionTheVendorsCurrentSDKsReadIsRead(_ version: Int) throws {
        #expect(try FallbackBundle.load(Self.file([], version: version)).formatVersion == version)
    }

    @Test(arguments: [("consumable", ProductType.consumable), ("lifetime", .non_consumable), ("monthly", nil),
                      ("nonsubscriptions", nil), ("uncategorised", nil), ("a-new-kind", nil)])
    func theDashboardsProductTypeNamesATypeOnlyWhereItSaysOne(_ value: String, _ type: ProductType?) {
        #expect(ProductReference.vendorProductType(value) == type)
    }

    @Test(arguments: [
        (#"{"data": {}}"#, "meta"),
        (#"{"meta": {"response_created_at": 1}, "data": {}}"#, "meta.version"),
        (#"{"meta": {"version": "8", "response_created_at": 1}, "data": {}}"#, "meta.version"),
        (#"{"meta": {"version": 8}, "data": {}}"#, "meta.response_created_at"),
        (#"{"meta": {"version": 8, "response_created_at": 1}}"#, "data"),
        (#"{"meta": {"version": 8, "response_created_at": 1}, "data": []}"#, "data"),
        (#"{"meta": {"version": 8, "response_created_at": 1, "developer_ids": "main"}, "data": {}}"#, "meta.developer_ids"),
    ])
    func headerErrorsNameTheField(_ text: String, _ field: String) throws {
        let error = try #require(throws: WireError.self) { try FallbackBundle.load(Array(text.utf8)) }
        #expect(error.code == .invalidFallback && error.details["field"] == .string(field))
    }

    @Test(arguments: [#"{}"#, #"{"hello": 1}"#, #"[{"meta": {}}]"#, #""data""#])
    func aFileOfNeitherFormatIsRefusedNamingBoth(_ text: String) throws {
        let error = try #require(throws: WireError.self) { try FallbackBundle.load(Array(text.utf8)) }
        #expect(error.code == .invalidFallback)
        guard case .array(let expected)? = error.details["expected"] else {
            Issue.record("no details.expected in \(error.details)")
            return
        }
        #expect(expected.count == 2)
    }

    @Test func aPlacementWrittenAsJSONTextIsReadLikeAnObject() throws {
        let text = Self.placement("welcome", variations: Self.onboarding("o", weight: 100))
        var escaped = ""
        for character in text { escaped += character == "\"" ? "\\\"" : String(character) }
        let bundle = try FallbackBundle.load(Self.file([("welcome", "\"\(escaped)\"")]))
        #expect(Set(bundle.onboardings.ids) == ["welcome"])
        #expect(try bundle.onboardings.placement("welcome")?.audiences.first?.variations.first?.url == "https://builder.test/o")
    }

    @Test func onlyThePlacementsTheHeaderListsAreServed() throws {
        let bundle = try FallbackBundle.load(Self.file([
            ("main", Self.placement("main", variations: Self.paywall("a", weight: 100))),
            ("unlisted", Self.placement("unlisted", variations: Self.paywall("b", weight: 100))),
        ], extraMeta: #", "developer_ids": ["main", "missing"]"#))
        #expect(Set(bundle.paywalls.ids) == ["main"])
    }

    @Test func placementsAreIndexedWithoutBeingBuilt() throws {
        // The broken placement is only an error when it is asked for, and names its field.
        let bundle = try FallbackBundle.load(Self.file([
            ("good", Self.placement("good", variations: Self.paywall("a", weight: 100))),
            ("weights", Self.placement("weights", variations: Self.paywall("a", weight: 60))),
            ("renamed", Self.placement("other", variations: Self.paywall("a", weight: 100))),
            ("lang", Self.placement("lang", variations: Self.paywall("a", weight: 100, remoteConfig: #"{"lang": "?", "data": "{}"}"#))),
            ("empty", #"{"meta": {}, "data": []}"#),
            ("broken_text", #""{not json""#),
        ]))
        #expect(try bundle.paywalls.placement("good") != nil)
        for (id, field) in [("weights", "data.weights.data"), ("renamed", "data.renamed.meta.placement.developer_id"),
                            ("lang", "data.lang.data[0].remote_config.lang"), ("empty", "data.empty.meta.placement"),
                            ("broken_text", "data.broken_text")] {
            let error = try #require(throws: WireError.self) { try bundle.paywalls.placement(id) }
            #expect(error.code == .invalidFallback && error.details["field"] == .string(field), "\(id): \(error)")
        }
    }

    @Test func inlineParamsReadTheVendorFormatInPlace() throws {
        let file = String(decoding: Self.file([("main", Self.placement("main", variations: Self.paywall("a", weight: 100)))]), as: UTF8.self)
        let inline = try #require(try FallbackBundle.loadInline(params: Array(#"{"bundle": \#(file)}"#.utf8)))
        #expect(inline.format == .adapty && Set(inline.paywalls.ids) == ["main"])
        #expect(try inline.paywalls.placement("main")?.audiences.first?.variations.first?.paywallId == "pw-a")
    }

    @Test func theBackendServesPaywireBundlesOnly() throws {
        let error = try #require(throws: WireError.self) {
            try ServableBundle.load(Self.file([("main", Self.placement("main", variations: Self.paywall("a", weight: 100)))]))
        }
        #expect(error.code == .invalidFallback && error.details["format"] == .string("adapty"))
    }
}
