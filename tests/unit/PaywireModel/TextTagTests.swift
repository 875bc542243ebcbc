import Testing
@testable import PaywireModel
@testable import PaywireWire

/// Money as text (DecimalAmount), the store's price format (PriceFormat), prices per period
/// (PeriodPricing) and the text tags built on them (TextTagResolver).
@Suite struct TextTagTests {
    private func amount(_ text: String) -> DecimalAmount {
        guard let amount = DecimalAmount(text) else { preconditionFailure("\(text) is not an amount") }
        return amount
    }

    private func product(_ id: String, _ price: String, _ written: String?, currency: String = "USD",
                         _ unit: SubscriptionPeriod.Unit?, count: Int = 1, offer: IntroOffer? = nil) -> StoreProduct {
        var money = Price(amount: JSONNumber(validatedText: price), currencyCode: currency, currencySymbol: "")
        money.written = written
        return StoreProduct(vendorProductId: id, localizedTitle: id, localizedDescription: "", price: money,
                            period: unit.map { SubscriptionPeriod(unit: $0, numberOfUnits: count) }, introOffer: offer, accessLevel: nil)
    }

    // MARK: - DecimalAmount

    @Test func amountsAreReadExactlyFromTheirText() {
        #expect(amount("9.99") == DecimalAmount(units: 999, scale: 2))
        #expect(amount("9.90") == DecimalAmount(units: 99, scale: 1))
        #expect(amount("980") == DecimalAmount(units: 980, scale: 0))
        #expect(amount("1.5e2") == DecimalAmount(units: 150, scale: 0))
        #expect(amount("12345e-3") == DecimalAmount(units: 12345, scale: 3))
        #expect(DecimalAmount("-1") == nil)
        #expect(DecimalAmount("99999999999999999999") == nil)
        #expect(DecimalAmount("abc") == nil)
    }

    @Test func decimalsAreRoundedDownNeverUp() {
        #expect(amount("0.999").digitTexts(decimals: 2)! == ("0", "99"))
        #expect(amount("5").digitTexts(decimals: 2)! == ("5", "00"))
        #expect(amount("1234.5").digitTexts(decimals: 0)! == ("1234", ""))
    }

    // MARK: - PriceFormat

    @Test(arguments: [
        ("9.99", "$9.99", "4.99", "$4.99"),
        ("1234.56", "1.234,56 €", "4.5", "4,50 €"),
        ("9.99", "9,99\u{a0}€", "1234.5", "1234,50\u{a0}€"),
        ("9800", "¥9,800", "816.6", "¥816"),
        ("9800", "¥9,800", "1234567", "¥1,234,567"),
        ("123456", "₹1,23,456.00", "1234567.891", "₹12,34,567.89"),
        ("59.99", "59,99 zł", "4.99", "4,99 zł"),
        ("1234.5", "CHF 1'234.50", "12345", "CHF 12'345.00"),
        ("9.99", "٩٫٩٩ ر.س", "4.5", "٤٫٥٠ ر.س"),
    ])
    func aComputedAmountIsWrittenTheWayTheStoreWritesItsPrice(_ price: String, _ written: String, _ other: String, _ expected: String) {
        let format = PriceFormat.learn(amount: amount(price), written: written)
        #expect(format?.write(amount(other)) == expected)
    }

    @Test func aStringThatDoesNotShowTheAmountTeachesNothing() {
        #expect(PriceFormat.learn(amount: amount("9.99"), written: "$10.00") == nil)
        #expect(PriceFormat.learn(amount: amount("9.99"), written: "free") == nil)
        #expect(PriceFormat.learn(amount: amount("1234.56"), written: "1,234,56") == nil)
    }

    @Test func whatOneStringCannotShowIsTakenFromAnotherInTheSameCurrency() throws {
        let small = try #require(PriceFormat.learn(amount: amount("980"), written: "¥980"))
        let large = try #require(PriceFormat.learn(amount: amount("9800"), written: "¥9,800"))
        #expect(small.write(amount("12000")) == "¥12000")
        #expect(small.completed(by: large).write(amount("12000")) == "¥12,000")
        let whole = try #require(PriceFormat.learn(amount: amount("10"), written: "$10"))
        let cents = try #require(PriceFormat.learn(amount: amount("4.99"), written: "$4.99"))
        #expect(whole.completed(by: cents).write(amount("0.8333")) == "$0.83")
    }

    // MARK: - PeriodPricing

    @Test(arguments: [
        ("59.99", SubscriptionPeriod.Unit.year, 1, SubscriptionPeriod.Unit.month, "4.99"),
        ("59.99", .year, 1, .week, "1.15"),
        ("59.99", .year, 1, .day, "0.16"),
        ("4.99", .week, 1, .month, "21.62"),
        ("7", .week, 1, .day, "1"),
        ("9.99", .month, 1, .week, "2.3"),
        ("9.99", .month, 1, .year, "119.88"),
        ("29.99", .month, 3, .month, "9.99"),
        ("1", .day, 1, .year, "365"),
    ])
    func pricesPerPeriodAreExactAndRoundedDown(_ price: String, _ unit: SubscriptionPeriod.Unit, _ count: Int,
                                               _ per: SubscriptionPeriod.Unit, _ expected: String) {
        let perUnit = PeriodPricing.price(amount(price), every: SubscriptionPeriod(unit: unit, numberOfUnits: count), per: per, decimals: 2)
        #expect(perUnit == amount(expected))
    }

    @Test func discountIsWholePercentSavedPerMonthRoundedDown() {
        let month = SubscriptionPeriod(unit: .month, numberOfUnits: 1)
        let year = SubscriptionPeriod(unit: .year, numberOfUnits: 1)
        #expect(PeriodPricing.discountPercent(amount("59.99"), every: year, against: amount("9.99"), every: month) == 49)
        #expect(PeriodPricing.discountPercent(amount("60"), every: year, against: amount("10"), every: month) == 50)
        #expect(PeriodPricing.discountPercent(amount("9.99"), every: month, against: amount("59.99"), every: year) == 0)
        #expect(PeriodPricing.discountPercent(amount("1"), every: month, against: amount("0"), every: month) == nil)
    }

    // MARK: - TextTagResolver

    @Test func eachProductHasTheTagsThatApplyToIt() {
        let trial = IntroOffer(paymentMode: .free_trial, period: SubscriptionPeriod(unit: .week, numberOfUnits: 1), numberOfPeriods: 1,
                               price: Price(amount: JSONNumber(0), currencyCode: "USD", currencySymbol: "$", written: "$0.00"))
        let tags = TextTagResolver(paywallProductIds: ["monthly", "annual", "lifetime"], described: [
            product("monthly", "9.99", "$9.99", .month),
            product("annual", "59.99", "$59.99", .year, offer: trial),
            product("lifetime", "149.99", "$149.99", nil),
        ])
        let annual = Dictionary(uniqueKeysWithValues: tags.table(for: "annual").map { ($0.name, $0.text) })
        #expect(annual == [
            "price": "$59.99", "price_per_day": "$0.16", "price_per_week": "$1.15", "price_per_month": "$4.99",
            "price_per_year": "$59.99", "period": "year", "intro_price": "$0.00", "intro_period": "week",
            "intro_duration": "1 week", "discount_percent:monthly": "49",
        ])
        #expect(tags.table(for: "lifetime").map(\.name) == ["price"])
    }

    @Test func textsAreFilledAndWhatCannotBeStaysAsWritten() {
        let tags = TextTagResolver(paywallProductIds: ["monthly", "annual", "missing"], described: [
            product("monthly", "9.99", "9,99 €", currency: "EUR", .month),
            product("annual", "59.99", "59,99 €", currency: "EUR", .year),
        ])
        let (text, problems) = tags.fill("{{ price }} · {{price_per_month@annual}} · {{discount_percent:monthly@annual}} % · "
            + "{{intro_price}} · {{price@nope}} · {{price@missing}} · {{discount_percent}} · {{price:x}} · {{bogus}} · {{ open", product: nil)
        #expect(text == "9,99 € · 4,99 € · 49 % · {{intro_price}} · {{price@nope}} · {{price@missing}} · {{discount_percent}} · "
            + "{{price:x}} · {{bogus}} · {{ open")
        #expect(problems.map(\.reason) == [.not_applicable, .unknown_product, .product_not_loaded, .missing_reference, .unknown_tag, .unknown_tag])
    }

    @Test func anObjectNamingAProductIsItsTextsContextAndJSONStaysJSON() throws {
        let tags = TextTagResolver(paywallProductIds: ["m", "y"], described: [
            product("m", "980", "¥980", currency: "JPY", .month), product("y", "9800", "¥9,800", currency: "JPY", .year),
        ])
        let value = try JSONParser.parse(#"{"title":"{{price}}","plans":[{"product_id":"y","label":"{{price_per_month}} \"x\""}]}"#)
        let (filled, problems) = tags.fill(value, product: nil)
        #expect(problems.isEmpty)
        #expect(filled == (try JSONParser.parse(#"{"title":"¥980","plans":[{"product_id":"y","label":"¥816 \"x\""}]}"#)))
        let quoted = TextTagResolver(paywallProductIds: ["q"], described: [product("q", "1", "1 \"q\"", .month)])
        #expect(quoted.fill(#"{"a":"{{price}}"}"#, product: nil, jsonEscaped: true).text == #"{"a":"1 \"q\""}"#)
    }

    @Test func productsInAnotherCurrencyAreNotCompared() {
        let tags = TextTagResolver(paywallProductIds: ["a", "b"], described: [
            product("a", "9.99", "$9.99", .month), product("b", "59.99", "59,99 €", currency: "EUR", .year),
        ])
        #expect(tags.value(.discount_percent, argument: "a", productId: "b") == .failure(.not_comparable))
    }
}
