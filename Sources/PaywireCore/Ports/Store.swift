/// The billing side of the platform: product details now, purchases and restores later.
protocol Store: AnyObject {
    /// The products the store knows among `ids`, in the order asked; unknown ids are left out.
    func products(_ ids: [String]) throws(WireError) -> [StoreProduct]
}

/// `store: {"type":"none"}`: the app has no billing provider.
final class NoStore: Store {
    func products(_ ids: [String]) throws(WireError) -> [StoreProduct] {
        throw WireError(.billingUnavailable, "no billing provider is configured (store.type is none)")
    }
}

/// `store: {"type":"test", "products": [...]}`: a scripted store whose catalog comes from config,
/// for demos, tests and hosts with no real store.
final class TestStore: Store {
    private let catalog: [String: StoreProduct]

    init(catalog: [StoreProduct]) {
        var byId: [String: StoreProduct] = [:]
        for product in catalog { byId[product.vendorProductId] = product }
        self.catalog = byId
    }

    func products(_ ids: [String]) throws(WireError) -> [StoreProduct] {
        ids.compactMap { catalog[$0] }
    }

    /// Reads one catalog entry from config (`store.products[i]`).
    static func loadProduct(_ fields: Fields) throws(WireError) -> StoreProduct {
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
                price: offerPrice)
        }
        return StoreProduct(
            vendorProductId: try fields.identifier("vendor_product_id"),
            localizedTitle: try fields.optionalString("title") ?? "",
            localizedDescription: try fields.optionalString("description") ?? "",
            price: try price("price", in: fields),
            period: period,
            introOffer: introOffer)
    }
}
