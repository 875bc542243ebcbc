import Testing
@testable import PaywireModel
@testable import PaywireServing
@testable import PaywireWire

/// A web visitor is chosen for as a device is, and sees the layout a device would resolve.
@Suite struct WebPaywallTests {
    let bundle = """
        {"format_version":1,"response_created_at":1700000000000,"placements":{
         "web":{"ab_test_name":"t","placement_audience_version_id":"web-v1","audience_name":"All","revision":2,"variations":[
          {"variation_id":"a","paywall_id":"pw-a","paywall_name":"A","weight":50,"products":["monthly","annual"],
           "remote_configs":[{"lang":"en","data":"{}"},{"lang":"fr","data":"{}"}],
           "builder":{"layout":"stack","sections":[{"type":"header","title":"Go"},
             {"type":"plan_selection","style":"radio_list","plans":[{"product_id":"monthly"},{"product_id":"annual"}]}]}},
          {"variation_id":"b","paywall_id":"pw-b","paywall_name":"B","weight":50,"products":["annual"]}]},
         "held":{"ab_test_name":"h","placement_audience_version_id":"held-v1","variations":[
          {"variation_id":"h","paywall_id":"","paywall_name":"","weight":100,"products":[],"holdout":true}]}}}
        """
    let products = """
        [{"vendor_product_id":"monthly","title":"Monthly","price":"9.99","period":{"unit":"month","number_of_units":1}},
         {"vendor_product_id":"annual","title":"Annual","price":"59.99","period":{"unit":"year","number_of_units":1}}]
        """

    func member(_ value: JSONValue?, _ key: String) -> JSONValue? {
        guard case .object(let object)? = value else { return nil }
        return object[key]
    }

    func list(_ value: JSONValue?) -> [JSONValue] {
        guard case .array(let items)? = value else { return [] }
        return items
    }

    func text(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        return text
    }

    func served() throws -> (WebCatalog, [StoreProduct]) {
        (try WebCatalog(ServableBundle.load(Array(bundle.utf8))), try StoreProduct.catalog(Array(products.utf8)))
    }

    @Test func everyVisitorMeetsTheVariationTheDevicesBucketingGivesTheSameProfile() throws {
        let (bundle, products) = try served()
        var seen = Set<String>()
        for index in 0..<200 {
            let profileId = "visitor-\(index)"
            let web = try #require(try bundle.webPaywall(placementId: "web", for: .init(profileId: profileId, locale: "en", activeAccessLevels: []),
                                                         products: products))
            let bucket = VariationChooser.bucket(placementAudienceVersionId: "web-v1", profileId: profileId)
            #expect(web.exposure.variationId == (bucket < 50 ? "a" : "b"), "profile \(profileId), bucket \(bucket)")
            seen.insert(web.exposure.variationId)
        }
        #expect(seen == ["a", "b"])
    }

    @Test func theAuthoredLayoutIsResolvedWithPricesAndSavings() throws {
        let (bundle, products) = try served()
        let web = try #require(try bundle.webPaywall(placementId: "web", for: .init(profileId: "p", locale: "fr-CA", activeAccessLevels: []),
                                                     variationId: "a", products: products))
        let plans = list(member(list(member(web.configuration, "sections")).last, "plans"))
        #expect(plans.count == 2)
        #expect(member(plans.last, "save_percentage") == .number(JSONNumber(49)))
        #expect(web.language == "fr")
        #expect(web.exposure.forced, "an operator's preview forces its variation, and says so")
    }

    @Test func aPaywallWithoutALayoutGetsItsNameItsPlansAndAContinueButton() throws {
        let (bundle, products) = try served()
        let web = try #require(try bundle.webPaywall(placementId: "web", for: .init(profileId: "p", locale: nil, activeAccessLevels: []),
                                                     variationId: "b", products: products))
        let sections = list(member(web.configuration, "sections"))
        #expect(sections.map { text(member($0, "type")) } == ["header", "plan_selection", "cta_button"])
        #expect(text(member(sections.first, "title")) == "B")
        #expect(text(member(list(member(sections.dropFirst().first, "plans")).first, "price")) == "$59.99")
    }

    @Test func aHoldoutShowsNothingAndItsExposureSaysHoldout() throws {
        let (bundle, products) = try served()
        let web = try #require(try bundle.webPaywall(placementId: "held", for: .init(profileId: "p", locale: nil, activeAccessLevels: []),
                                                     products: products))
        #expect(web.holdout && web.exposure.holdout && web.configuration == nil)
    }

    @Test func anUnknownPlacementIsNoPaywall() throws {
        let (bundle, products) = try served()
        #expect(try bundle.webPaywall(placementId: "nope", for: .init(profileId: "p", locale: nil, activeAccessLevels: []), products: products) == nil)
        #expect(bundle.variationIds(of: "web") == ["a", "b"])
    }

    @Test func aVariationsPreviewLanguagesAreItsRemoteConfigsInOrderAndNoneForAnUnknownOne() throws {
        let (bundle, _) = try served()
        #expect(bundle.languages(of: "web", variationId: "a") == ["en", "fr"])
        #expect(bundle.languages(of: "web", variationId: "b").isEmpty)
        #expect(bundle.languages(of: "web", variationId: "zz").isEmpty && bundle.languages(of: "nope", variationId: "a").isEmpty)
    }
}

/// The builder's public names are the ones its rules know.
@Suite struct PaywallBuilderNamesTests {
    @Test func everySectionTypeNamedHasRulesAndEachIsNamedOnce() {
        #expect(PaywallBuilderNames.sectionTypes.count == 21 && Set(PaywallBuilderNames.sectionTypes).count == 21)
        #expect(PaywallBuilderNames.sectionTypes.allSatisfy { PaywallBuilder.sectionRules($0) != nil })
        #expect(PaywallBuilder.sectionRules("not_a_section") == nil)
        #expect(PaywallBuilderNames.planStyles.count == 12 && PaywallBuilderNames.layouts == ["carousel", "grid", "stack"])
    }
}
