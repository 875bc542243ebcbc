import PaywireWire

/// The catalog's Stripe prices: each product's optional `stripe_price_id` (schema
/// `store_product`), read from the same file as the catalog (a JSON array of products or a
/// client config's `store.products`). Pure.
package enum StripePrices {
    /// Stripe price id -> vendor product id; a price named by two products is refused.
    package static func read(_ bytes: [UInt8]) throws(RequestProblem) -> [String: String] {
        guard let document = try? JSONValue(parsing: bytes) else { throw RequestProblem("the products file is not JSON") }
        let list = document.isObject ? document["store"]?["products"] : document
        var prices: [String: String] = [:]
        for (index, item) in (list?.asArray ?? []).enumerated() {
            guard let price = item["stripe_price_id"], price != .null else { continue }
            guard let priceId = price.asString, !priceId.isEmpty, let product = item["vendor_product_id"]?.asString else {
                throw RequestProblem("products[\(index)].stripe_price_id must be a non-empty string")
            }
            if let other = prices[priceId] {
                throw RequestProblem("products[\(index)].stripe_price_id '\(priceId)' is also product '\(other)''s: a price buys one product")
            }
            prices[priceId] = product
        }
        return prices
    }
}
