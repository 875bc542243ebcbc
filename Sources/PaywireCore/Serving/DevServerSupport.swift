/// The few core rules the development backend (`tools/devserver`) must apply exactly as the
/// core does, so the two cannot drift: JSON read with exact number text, ISO 8601 dates, the
/// test store's product catalog and its expiry arithmetic, and the A/B tests a bundle defines.
/// Nothing here is used by libpaywire itself.
public enum DevServerSupport {
    /// Parses JSON text as the core does: numbers keep their text, objects their key order.
    public static func parseJSON(_ bytes: [UInt8], maxBytes: Int = JSONLimits.standard.maxBytes) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(bytes, limits: JSONLimits(maxDepth: JSONLimits.standard.maxDepth, maxBytes: maxBytes))
    }

    /// A finite double as a JSON number (Swift's shortest exact text); nil for NaN or infinity.
    public static func number(_ value: Double) -> JSONNumber? {
        value.isFinite ? JSONNumber(validatedText: "\(value)") : nil
    }

    /// Whether a grant gives access at `now`, by the rule the device's profile follows: not
    /// refunded, and before its expiry or, while the store retries a renewal, its grace period's end.
    public static func grantIsActive(now: Int, expiresAt: Int?, isRefund: Bool, isInGracePeriod: Bool,
                                     gracePeriodExpiresAt: Int?) -> Bool {
        Profile.Grant.isActive(now: now, startsAt: nil, expiresAt: expiresAt, isRefund: isRefund,
                               isInGracePeriod: isInGracePeriod, gracePeriodExpiresAt: gracePeriodExpiresAt)
    }

    /// Milliseconds since the epoch as the wire's `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public static func isoDate(milliseconds: Int) -> String { ISODate.format(milliseconds: milliseconds) }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z` as milliseconds since the epoch; nil for anything else.
    public static func parseISODate(_ text: String) -> Int? { ISODate.parse(text) }

    /// A test-store product as the dev server needs it to grant access.
    public struct Product: Sendable {
        public let vendorProductId: String
        /// The price's decimal text, exactly as authored.
        public let price: String
        public let currencyCode: String
        /// Nil: the product grants no access level.
        public let accessLevel: String?
        /// `consumable`, `non_consumable`, `autorenewable` or `non_renewing`.
        public let productType: String
        /// Whether the product is a subscription (it has a period).
        public let hasPeriod: Bool
        /// Whether a purchase renews by itself.
        public let autoRenews: Bool
        private let product: StoreProduct

        init(_ product: StoreProduct) {
            self.product = product
            vendorProductId = product.vendorProductId
            price = product.price.amount.text
            currencyCode = product.price.currencyCode
            accessLevel = product.accessLevel
            productType = product.productType.rawValue
            hasPeriod = product.productType.hasPeriod
            autoRenews = product.productType == .autorenewable
        }

        /// When access bought at `start` ends, by the core's own calendar (months and years by
        /// the calendar, days and weeks exact); nil without a period.
        public func expiry(from start: Int) -> Int? { product.expiry(from: start) }
    }

    /// Reads test-store products: a JSON array of products, or a client config whose
    /// `store.products` is that array. Each is checked by the core's own rules.
    public static func products(_ bytes: [UInt8]) throws(WireError) -> [Product] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw WireError(.wrongParam, "the products file is not valid JSON: \(error.reason) at byte \(error.offset)")
        }
        var list = document
        var path = ""
        if case .object(let config) = document {
            guard case .object(let store)? = config["store"], let products = store["products"] else {
                throw WireError.wrongParam("store.products", "a config file needs store.products")
            }
            list = products
            path = "store."
        }
        guard case .array(let items) = list else {
            throw WireError.wrongParam("\(path)products", "expected an array of products")
        }
        var seen = Set<String>()
        var products: [Product] = []
        for (index, item) in items.enumerated() {
            let product = try StoreProduct.load(Fields(item, path: "\(path)products[\(index)]"))
            guard seen.insert(product.vendorProductId).inserted else {
                throw WireError.wrongParam("\(path)products[\(index)].vendor_product_id", "duplicate product '\(product.vendorProductId)'")
            }
            products.append(Product(product))
        }
        return products
    }

    /// One A/B test of a placement's audience: its name and its variations' weights.
    public struct Experiment: Sendable {
        public let abTestName: String
        public let placementAudienceVersionId: String
        /// (variation_id, weight) in the bundle's order.
        public let variations: [(variationId: String, weight: Int)]
    }

    /// The A/B tests of every paywall placement of a bundle, by placement id, one per audience
    /// in the bundle's order (an ab_test_name shared by two audiences is listed once, first).
    public static func experiments(bundle bytes: [UInt8]) throws(WireError) -> [String: [Experiment]] {
        let bundle = try FallbackBundle.load(bytes)
        var result: [String: [Experiment]] = [:]
        for id in bundle.paywalls.ids {
            guard let placement = try bundle.paywalls.placement(id) else { continue }
            var seen = Set<String>()
            var experiments: [Experiment] = []
            for audience in placement.audiences where seen.insert(audience.abTestName).inserted {
                experiments.append(Experiment(
                    abTestName: audience.abTestName,
                    placementAudienceVersionId: audience.placementAudienceVersionId,
                    variations: audience.variations.map { ($0.variationId, $0.weight) }))
            }
            result[id] = experiments
        }
        return result
    }
}
