import Testing
@testable import PaywireModel
@testable import PaywireWire

@Suite struct ProductOfferTests {
    private func product(_ text: String) throws(WireError) -> StoreProduct {
        let value: JSONValue
        do { value = try JSONParser.parse(Array(text.utf8)) } catch { throw WireError(.internal, "the test's JSON") }
        return try StoreProduct.load(Fields(value, path: "products[0]"))
    }

    private func field(of error: WireError) -> JSONValue? { error.details["field"] }

    private let monthly = #""vendor_product_id":"premium","price":"9.99","localized_price":"$9.99","period":{"unit":"month","number_of_units":1}"#

    @Test func aPlayProductKeepsItsBasePlanAndEveryOfferInOrder() throws {
        let loaded = try product(#"{\#(monthly),"base_plan_id":"monthly","offers":[{"offer_id":"a","offer_tags":["x"],"phases":[{"payment_mode":"free_trial","period":{"unit":"week","number_of_units":1}}]},{"offer_id":"b","phases":[{"payment_mode":"pay_up_front","period":{"unit":"month","number_of_units":3},"price":"19.99"}]}]}"#)
        #expect(loaded.basePlanId == "monthly")
        #expect(loaded.allOffers.map(\.offerId) == ["a", "b"])
        #expect(loaded.playOffers.first?.tags == ["x"])
        #expect(loaded.playOffers.first?.kind == .introductory)
    }

    @Test func aPhasePriceTheStoreDidNotWriteIsWrittenLikeTheProducts() throws {
        let loaded = try product(#"{\#(monthly),"offers":[{"offer_id":"a","phases":[{"payment_mode":"pay_as_you_go","period":{"unit":"month","number_of_units":1},"number_of_periods":3,"price":"4.99"}]}]}"#)
        let phase = try #require(loaded.playOffers.first?.phases.first)
        #expect(phase.price.localizedString == "$4.99")
        #expect(phase.numberOfPeriods == 3)
    }

    @Test func theNamedOfferIsAppliedAndAnUnlistedOneIsNone() throws {
        let loaded = try product(#"{\#(monthly),"intro_offer":{"payment_mode":"free_trial","period":{"unit":"week","number_of_units":1}},"offers":[{"offer_id":"a","phases":[{"payment_mode":"free_trial","period":{"unit":"day","number_of_units":3}}]}]}"#)
        #expect(loaded.offer(named: "a")?.offerId == "a")
        #expect(loaded.offer(named: "gone") == nil)
        // Without a name, the App Store's intro offer, as one phase with no id.
        let intro = try #require(loaded.offer(named: nil))
        #expect(intro.offerId == nil)
        #expect(intro.phases.count == 1)
        #expect(loaded.allOffers.count == 2)
    }

    @Test func aProductServesTheBasePlanItDescribesOrAnyWhenNoneIsNamed() throws {
        let loaded = try product(#"{\#(monthly),"base_plan_id":"monthly"}"#)
        var named = ProductReference(vendorProductId: "premium")
        #expect(loaded.serves(nil))
        #expect(loaded.serves(named))
        named.basePlanId = "annual"
        #expect(!loaded.serves(named))
        named.basePlanId = "monthly"
        #expect(loaded.serves(named))
    }

    @Test func malformedOffersAreRefusedNamingTheField() {
        let cases: [(String, String)] = [
            (#"{"vendor_product_id":"coins","price":"0.99","offers":[]}"#, "products[0].offers"),
            (#"{\#(monthly),"offers":[{"offer_id":"a","phases":[]}]}"#, "products[0].offers[0].phases"),
            (#"{\#(monthly),"offers":[{"phases":[{"payment_mode":"free_trial","period":{"unit":"week","number_of_units":1}}]}]}"#, "products[0].offers[0].offer_id"),
            (#"{\#(monthly),"offers":[{"offer_id":"a","phases":[{"payment_mode":"free_trial","period":{"unit":"week","number_of_units":1}}]},{"offer_id":"a","phases":[{"payment_mode":"free_trial","period":{"unit":"week","number_of_units":1}}]}]}"#, "products[0].offers[1].offer_id"),
            (#"{\#(monthly),"offers":[{"offer_id":"a","offer_tags":[1],"phases":[{"payment_mode":"free_trial","period":{"unit":"week","number_of_units":1}}]}]}"#, "products[0].offers[0].offer_tags[0]"),
            (#"{\#(monthly),"offers":[{"offer_id":"a","phases":[{"payment_mode":"pay_as_you_go","period":{"unit":"week","number_of_units":1}}]}]}"#, "products[0].offers[0].phases[0].price"),
            (#"{\#(monthly),"base_plan_id":""}"#, "products[0].base_plan_id"),
        ]
        for (text, expected) in cases {
            do throws(WireError) {
                _ = try product(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(field(of: error) == .string(expected), "\(text)")
            }
        }
    }
}
