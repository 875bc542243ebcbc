/// The billing provider a client was configured with.
enum StoreKind {
    /// `store: {"type":"none"}`: no billing provider; purchases and restores fail at once.
    case none
    /// `store: {"type":"test", ...}`: a catalog and scripted outcomes from config.
    case test(TestStore)
    /// `store: {"type":"host"}`: the host's store, asked through `host_request` events.
    case host

    var isAvailable: Bool {
        if case .none = self { return false }
        return true
    }
}

/// An outcome the test store plays for a purchase, a restore, or a products fetch.
struct ScriptedOutcome: Sendable {
    enum Kind: String, CaseIterable, Sendable { case success, user_cancelled, pending, failed }
    let kind: Kind
    /// For `failed`: the error the flow reports.
    let error: WireError?
    /// How long the store "takes", so tests can race a second purchase or a dismissal.
    let delayMilliseconds: Int
    /// For restores: the products the store says the user owns.
    let productIds: [String]

    static let success = ScriptedOutcome(kind: .success, error: nil, delayMilliseconds: 0, productIds: [])

    /// `{type, code?, message?, underlying_error?, delay_ms?, product_ids?}`.
    static func load(_ fields: Fields, failureCode: ErrorCode) throws(WireError) -> ScriptedOutcome {
        guard let kind = try fields.optionalEnum("type", Kind.self) else { throw WireError.wrongParam(fields.fieldPath("type"), "is required") }
        var error: WireError?
        if kind == .failed {
            let code = try fields.optionalString("code").map { text throws(WireError) -> ErrorCode in
                guard let code = ErrorCode(rawValue: text) else { throw WireError.wrongParam(fields.fieldPath("code"), "'\(text)' is not an error code") }
                return code
            } ?? failureCode
            var details = JSONObject()
            if let underlying = try fields.optionalString("underlying_error") { details.set("underlying_error", .string(underlying)) }
            error = WireError(code, try fields.optionalString("message") ?? "the test store was scripted to fail", details: details)
        }
        var ids: [String] = []
        if fields.optional("product_ids") != nil {
            for (index, element) in try fields.array("product_ids").enumerated() {
                guard case .string(let id) = element, !id.isEmpty else {
                    throw WireError.wrongParam("\(fields.fieldPath("product_ids"))[\(index)]", "expected a product id")
                }
                ids.append(id)
            }
        }
        return ScriptedOutcome(kind: kind, error: error,
                               delayMilliseconds: try fields.optionalInt("delay_ms", in: 0...600_000) ?? 0, productIds: ids)
    }
}

/// The test store: a product catalog from config, each product with a scripted purchase
/// outcome and the access level it grants; a scripted restore; and optionally products
/// fetches that fail a number of times before succeeding.
final class TestStore {
    private let catalog: [String: StoreProduct]
    let purchaseScripts: [String: ScriptedOutcome]
    let restoreScript: ScriptedOutcome
    let fetchFailure: WireError?
    private(set) var fetchFailuresLeft: Int
    /// `store.now`: a fixed clock for reproducible expiry dates.
    let fixedNow: Int?

    init(catalog: [StoreProduct], purchaseScripts: [String: ScriptedOutcome], restoreScript: ScriptedOutcome,
         fetchFailure: WireError?, fetchFailures: Int, fixedNow: Int?) {
        var byId: [String: StoreProduct] = [:]
        for product in catalog { byId[product.vendorProductId] = product }
        self.catalog = byId
        self.purchaseScripts = purchaseScripts
        self.restoreScript = restoreScript
        self.fetchFailure = fetchFailure
        self.fetchFailuresLeft = fetchFailures
        self.fixedNow = fixedNow
    }

    /// The products the store knows among `ids`, in the order asked; unknown ids are left out.
    /// Fails while scripted fetch failures remain.
    func products(_ ids: [String]) throws(WireError) -> [StoreProduct] {
        if fetchFailuresLeft > 0, let fetchFailure {
            fetchFailuresLeft -= 1
            throw fetchFailure
        }
        return ids.compactMap { catalog[$0] }
    }

    func product(_ id: String) -> StoreProduct? { catalog[id] }

    /// Reads `store` of type test from config.
    static func load(_ fields: Fields) throws(WireError) -> TestStore {
        var catalog: [StoreProduct] = []
        var scripts: [String: ScriptedOutcome] = [:]
        var seen = Set<String>()
        if fields.optional("products") != nil {
            for product in try fields.objects("products") {
                let loaded = try loadProduct(product)
                guard seen.insert(loaded.vendorProductId).inserted else {
                    throw WireError.wrongParam(product.fieldPath("vendor_product_id"), "duplicate product '\(loaded.vendorProductId)'")
                }
                catalog.append(loaded)
                if let script = try product.optionalObject("purchase") {
                    scripts[loaded.vendorProductId] = try ScriptedOutcome.load(script, failureCode: .purchaseFailed)
                }
            }
        }
        let restore = try fields.optionalObject("restore").map { (restore: Fields) throws(WireError) in
            try ScriptedOutcome.load(restore, failureCode: .restoreFailed)
        } ?? .success
        var fetchFailure: WireError?
        var fetchFailures = 0
        if let fetch = try fields.optionalObject("fetch_products") {
            fetchFailures = try fetch.optionalInt("fail_times", in: 0...1000) ?? 1
            fetchFailure = try ScriptedOutcome.load(Fields(JSONObject([("type", .string("failed"))] + fetch.object.members.filter { $0.key != "fail_times" && $0.key != "type" }), path: fetch.path),
                                                    failureCode: .productsLoadingFailed).error
        }
        var fixedNow: Int?
        if let now = try fields.optionalString("now") {
            guard let parsed = ISODate.parse(now) else {
                throw WireError.wrongParam(fields.fieldPath("now"), "'\(now)' is not an ISO 8601 UTC time like 2024-01-15T10:30:00.000Z")
            }
            fixedNow = parsed
        }
        return TestStore(catalog: catalog, purchaseScripts: scripts, restoreScript: restore,
                         fetchFailure: fetchFailure, fetchFailures: fetchFailures, fixedNow: fixedNow)
    }

    /// Reads one catalog entry (`store.products[i]`, or a product in a host's answer).
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
        return product
    }
}
