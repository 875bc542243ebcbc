import PaywireWire

extension StoreProduct {
    /// Reads a product in the store shape: a test-store catalog entry (`store.products[i]`),
    /// or a product in the host store's answer to `store.fetch_products`.
    package static func load(_ fields: Fields) throws(WireError) -> StoreProduct {
        let prices = PriceReader(currencyCode: try fields.optionalString("currency_code") ?? "USD",
                                 currencySymbol: try fields.optionalString("currency_symbol"))
        let period = try fields.optionalObject("period").map { (period: Fields) throws(WireError) in try SubscriptionPeriod.load(period) }
        var introOffer: IntroOffer?
        if let offer = try fields.optionalObject("intro_offer") {
            guard period != nil else {
                throw WireError.wrongParam(offer.path, "an intro offer needs the product to have a period")
            }
            introOffer = try IntroOffer.load(offer, prices: prices)
        }
        let price = try prices.read("price", in: fields)
        // An offer price the store did not write is written the way it writes the product's.
        if var offer = introOffer, offer.price.written == nil, price.written != nil, let format = TextTagResolver.learn(price),
           let amount = DecimalAmount(offer.price.amount) {
            offer.price.written = format.write(amount)
            introOffer = offer
        }
        var product = StoreProduct(
            vendorProductId: try fields.identifier("vendor_product_id"),
            localizedTitle: try fields.optionalString("title") ?? "",
            localizedDescription: try fields.optionalString("description") ?? "",
            price: price,
            period: period,
            introOffer: introOffer,
            accessLevel: try fields.optionalString("access_level").flatMap { $0.isEmpty ? nil : $0 })
        try product.loadStoreDetails(fields)
        try product.loadType(fields)
        try product.loadPlayOffers(fields, prices: prices)
        return product
    }

    /// Google Play: `base_plan_id` and the offers on it, each phase's price written the way the
    /// store writes the product's when it did not write it.
    private mutating func loadPlayOffers(_ fields: Fields, prices: PriceReader) throws(WireError) {
        basePlanId = try fields.optionalString("base_plan_id")
        if basePlanId?.isEmpty == true { throw WireError.wrongParam(fields.fieldPath("base_plan_id"), "must not be empty") }
        guard fields.optional("offers") != nil else { return }
        guard period != nil else { throw WireError.wrongParam(fields.fieldPath("offers"), "offers need the product to have a period") }
        let format = price.written == nil ? nil : TextTagResolver.learn(price)
        var ids = Set<String>()
        for entry in try fields.objects("offers") {
            var offer = try ProductOffer(play: entry, prices: prices)
            guard ids.insert(offer.offerId ?? "").inserted else {
                throw WireError.wrongParam(entry.fieldPath("offer_id"), "duplicate offer '\(offer.offerId ?? "")'")
            }
            for index in offer.phases.indices where offer.phases[index].price.written == nil {
                if let format, let amount = DecimalAmount(offer.phases[index].price.amount) {
                    offer.phases[index].price.written = format.write(amount)
                }
            }
            playOffers.append(offer)
        }
    }

    /// `product_type`, checked against the period: a subscription or a non-renewing purchase
    /// needs one (its length), a consumable or non-consumable has none. Without a type the
    /// period and `renewal_type` decide.
    private mutating func loadType(_ fields: Fields) throws(WireError) {
        guard let named = try fields.optionalEnum("product_type", ProductType.self) else {
            productType = ProductType.inferred(hasPeriod: period != nil, autoRenews: autoRenews)
            return
        }
        if named.hasPeriod && period == nil {
            throw WireError.wrongParam(fields.fieldPath("period"), "is required for a \(named.rawValue) product (its length)")
        }
        if !named.hasPeriod && period != nil {
            throw WireError.wrongParam(fields.fieldPath("period"), "a \(named.rawValue) product has no period")
        }
        if fields.optional("renewal_type") != nil && named.hasPeriod && (named == .autorenewable) != autoRenews {
            throw WireError.wrongParam(fields.fieldPath("renewal_type"), "contradicts product_type \(named.rawValue)")
        }
        productType = named
        if named == .non_renewing { autoRenews = false }
    }

    /// Eligibility as the store knows it, and the details wrappers expect.
    private mutating func loadStoreDetails(_ fields: Fields) throws(WireError) {
        eligibility = try fields.optionalEnum("intro_offer_eligibility", OfferEligibility.self) ?? .eligible
        eligibilityAfterValidation = try fields.optionalEnum("eligibility_after_validation", OfferEligibility.self) ?? .eligible
        guard eligibilityAfterValidation != .unknown else {
            throw WireError.wrongParam(fields.fieldPath("eligibility_after_validation"), "validation settles eligibility: eligible or ineligible")
        }
        isFamilyShareable = try fields.optionalBool("is_family_shareable") ?? false
        groupIdentifier = try fields.optionalString("group_identifier")
        switch try fields.optionalString("renewal_type") {
        case nil, "autorenewable"?: autoRenews = true
        case "non_renewable"?: autoRenews = false
        case let other?: throw WireError.wrongParam(fields.fieldPath("renewal_type"), "'\(other)' is not one of: autorenewable, non_renewable")
        }
    }
}

extension IntroOffer {
    /// `{payment_mode, period, number_of_periods?, price?, type?, id?}`; a free trial costs 0.
    package static func load(_ offer: Fields, prices: PriceReader) throws(WireError) -> IntroOffer {
        let phase = try OfferPhase.load(offer, prices: prices)
        return IntroOffer(
            paymentMode: phase.paymentMode,
            period: phase.period,
            numberOfPeriods: phase.numberOfPeriods,
            price: phase.price,
            kind: try offer.optionalEnum("type", IntroOffer.Kind.self) ?? .introductory,
            identifier: try offer.optionalString("id"))
    }
}

/// Reads a product's prices in its currency: a decimal number, or a string holding one (kept
/// exactly as written).
package struct PriceReader {
    package let currencyCode: String
    package let currencySymbol: String

    package init(currencyCode: String, currencySymbol: String?) {
        self.currencyCode = currencyCode
        self.currencySymbol = currencySymbol ?? (currencyCode == "USD" ? "$" : "")
    }

    package var zero: Price { Price(amount: JSONNumber(0), currencyCode: currencyCode, currencySymbol: currencySymbol) }

    package func read(_ key: String, in fields: Fields) throws(WireError) -> Price {
        let amount: JSONNumber
        switch fields.object[key] {
        case .number(let number)?: amount = number
        case .string(let text)?:
            guard case .number(let number)? = try? JSONParser.parse(text), !text.hasPrefix("-") else {
                throw WireError.wrongParam(fields.fieldPath(key), "'\(text)' is not a decimal amount")
            }
            amount = number
        case nil, .null?: throw WireError.wrongParam(fields.fieldPath(key), "is required")
        case let other?: throw WireError.wrongParam(fields.fieldPath(key), "expected a decimal amount, got \(other.typeName)")
        }
        guard let value = amount.doubleValue, value >= 0 else {
            throw WireError.wrongParam(fields.fieldPath(key), "must be a finite amount >= 0")
        }
        var price = Price(amount: amount, currencyCode: currencyCode, currencySymbol: currencySymbol)
        // `localized_price` beside `price`: the store's own text for its user.
        price.written = try fields.optionalString("localized_\(key)")
        if price.written?.isEmpty == true { throw WireError.wrongParam(fields.fieldPath("localized_\(key)"), "must not be empty") }
        return price
    }
}
