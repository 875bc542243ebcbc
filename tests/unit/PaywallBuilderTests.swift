import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

@Suite struct PaywallBuilderTests {
    private func product(_ id: String, _ price: String, _ unit: SubscriptionPeriod.Unit?, count: Int = 1, offer: IntroOffer? = nil) -> StoreProduct {
        StoreProduct(vendorProductId: id, localizedTitle: id, localizedDescription: "",
                     price: Price(amount: JSONNumber(validatedText: price), currencyCode: "USD", currencySymbol: "$"),
                     period: unit.map { SubscriptionPeriod(unit: $0, numberOfUnits: count) }, introOffer: offer, accessLevel: "premium")
    }

    @Test func savePercentageComparesPricePerMonthAndRoundsDown() {
        let monthly = product("m", "10.00", .month)
        let annual = product("y", "60.00", .year)       // 5.00 a month: 50% saved
        let quarterly = product("q", "29.99", .month, count: 3)  // 9.9966 a month: 0.03% -> 0, no badge
        let highest = [monthly, annual, quarterly].compactMap(PaywallBuilder.monthlyPrice).max()
        #expect(PaywallBuilder.savePercentage(annual, highestMonthly: highest) == 50)
        #expect(PaywallBuilder.savePercentage(quarterly, highestMonthly: highest) == nil)
        #expect(PaywallBuilder.savePercentage(monthly, highestMonthly: highest) == nil)
        #expect(PaywallBuilder.savePercentage(product("l", "99", nil), highestMonthly: highest) == nil)
    }

    @Test func trialLabelsComeFromTheIntroOffer() {
        let free = IntroOffer(paymentMode: .free_trial, period: SubscriptionPeriod(unit: .day, numberOfUnits: 3), numberOfPeriods: 1,
                              price: Price(amount: JSONNumber(0), currencyCode: "USD", currencySymbol: "$"))
        let upFront = IntroOffer(paymentMode: .pay_up_front, period: SubscriptionPeriod(unit: .month, numberOfUnits: 3), numberOfPeriods: 1,
                                 price: Price(amount: JSONNumber(validatedText: "9.99"), currencyCode: "USD", currencySymbol: "$"))
        #expect(PaywallBuilder.trialLabel(product("a", "1", .year, offer: free)) == "3 days free")
        #expect(PaywallBuilder.trialLabel(product("b", "1", .year, offer: upFront)) == "3 months for $9.99")
        #expect(PaywallBuilder.trialLabel(product("c", "1", .year)) == nil)
    }

    @Test func validationStopsAtTheFirstBadFieldInDocumentOrder() throws {
        let builder = try JSONParser.parse(#"{"layout":"stack","sections":[{"type":"header"},{"type":"spacer","height":-1}]}"#)
        let problem = PaywallBuilder.validate(builder, productIds: [])
        #expect(problem?.code == .renderingFailed)
        #expect(problem?.details["field"] == .string("builder.sections[0].title"))
    }
}
