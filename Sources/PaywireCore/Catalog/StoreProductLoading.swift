extension StoreProduct {
    /// Reads a product in the store shape: a test-store catalog entry (`store.products[i]`),
    /// or a product in the host store's answer to `store.fetch_products`.
    static func load(_ fields: Fields) throws(WireError) -> StoreProduct {
        let currencyCode = try fields.optionalString("currency_code") ?? "USD"
        let currencySymbol = try fields.optionalString("currency_symbol") ?? (currencyCode == "USD" ? "$" : "")
        func price(_ key: String, in fields: Fields) throws(WireError) -> Price {
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
            return Price(amount: amount, currencyCode: currencyCode, currencySymbol: currencySymbol)
        }
        let period = try fields.optionalObject("period").map { (period: Fields) throws(WireError) in try SubscriptionPeriod.load(period) }
        var introOffer: IntroOffer?
        if let offer = try fields.optionalObject("intro_offer") {
            guard period != nil else {
                throw WireError.wrongParam(offer.path, "an intro offer needs the product to have a period")
            }
            guard let mode = try offer.optionalEnum("payment_mode", IntroOffer.PaymentMode.self) else {
                throw WireError.wrongParam(offer.fieldPath("payment_mode"), "is required")
            }
            let offerPrice = mode == .free_trial && offer.optional("price") == nil
                ? Price(amount: JSONNumber(0), currencyCode: currencyCode, currencySymbol: currencySymbol)
                : try price("price", in: offer)
            introOffer = IntroOffer(
                paymentMode: mode,
                period: try SubscriptionPeriod.load(try offer.object("period")),
                numberOfPeriods: try offer.optionalInt("number_of_periods", in: 1...1000) ?? 1,
                price: offerPrice,
                kind: try offer.optionalEnum("type", IntroOffer.Kind.self) ?? .introductory,
                identifier: try offer.optionalString("id"))
        }
        var product = StoreProduct(
            vendorProductId: try fields.identifier("vendor_product_id"),
            localizedTitle: try fields.optionalString("title") ?? "",
            localizedDescription: try fields.optionalString("description") ?? "",
            price: try price("price", in: fields),
            period: period,
            introOffer: introOffer,
            accessLevel: try fields.optionalString("access_level") ?? "premium")
        product.eligibility = try fields.optionalEnum("intro_offer_eligibility", OfferEligibility.self) ?? .eligible
        product.eligibilityAfterValidation = try fields.optionalEnum("eligibility_after_validation", OfferEligibility.self) ?? .eligible
        guard product.eligibilityAfterValidation != .unknown else {
            throw WireError.wrongParam(fields.fieldPath("eligibility_after_validation"), "validation settles eligibility: eligible or ineligible")
        }
        product.isFamilyShareable = try fields.optionalBool("is_family_shareable") ?? false
        product.groupIdentifier = try fields.optionalString("group_identifier")
        switch try fields.optionalString("renewal_type") {
        case nil, "autorenewable"?: product.autoRenews = true
        case "non_renewable"?: product.autoRenews = false
        case let other?: throw WireError.wrongParam(fields.fieldPath("renewal_type"), "'\(other)' is not one of: autorenewable, non_renewable")
        }
        return product
    }
}
