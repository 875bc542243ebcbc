import Testing
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
        let dearest = PaywallBuilder.dearestPerMonth([annual, monthly, quarterly])
        #expect(dearest?.vendorProductId == "m")
        #expect(PaywallBuilder.savePercentage(annual, against: dearest) == 50)
        #expect(PaywallBuilder.savePercentage(quarterly, against: dearest) == nil)
        #expect(PaywallBuilder.savePercentage(monthly, against: dearest) == nil)
        #expect(PaywallBuilder.savePercentage(product("l", "99", nil), against: dearest) == nil)
    }

    @Test func resolvingFillsTagsWithEachPlanAboutItsOwnProduct() throws {
        let builder = try JSONParser.parse(#"{"layout":"stack","sections":[{"type":"header","title":"From {{price_per_month@y}} a month"},"#
            + #"{"type":"plan_selection","style":"radio_list","plans":[{"product_id":"m","badge":"{{price}}/{{period}}"},"#
            + #"{"product_id":"y","badge":"{{price_per_week}} a week, save {{discount_percent:m}}% {{nope}}"}]}]}"#)
        let products = ["m": product("m", "10.00", .month), "y": product("y", "60.00", .year)]
        let (resolved, problems) = PaywallBuilder.resolve(builder, productIds: ["m", "y"], products: products)
        guard case .object(let root) = resolved, case .array(let sections)? = root["sections"],
              case .object(let header) = sections[0], case .object(let plans) = sections[1], case .array(let list)? = plans["plans"],
              case .object(let first) = list[0], case .object(let second) = list[1] else {
            Issue.record("unexpected shape"); return
        }
        #expect(header["title"] == .string("From $5.00 a month"))
        #expect(first["badge"] == .string("$10.00/month"))
        #expect(second["badge"] == .string("$1.15 a week, save 50% {{nope}}"))
        #expect(second["save_percentage"] == .number(JSONNumber(50)))
        #expect(problems == [TextTagProblem(tag: "{{nope}}", reason: .unknown_tag, productId: nil)])
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
