import PaywireWire

extension StoreProduct {
    /// Reads a test store's products as the backend needs them: a JSON array of products, or a
    /// client config whose `store.products` is that array, each checked by the device's own
    /// rules. A duplicate `vendor_product_id` is refused, naming it.
    public static func catalog(_ bytes: [UInt8]) throws(WireError) -> [StoreProduct] {
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
        var products: [StoreProduct] = []
        for (index, item) in items.enumerated() {
            let product = try StoreProduct.load(Fields(item, path: "\(path)products[\(index)]"))
            guard seen.insert(product.vendorProductId).inserted else {
                throw WireError.wrongParam("\(path)products[\(index)].vendor_product_id", "duplicate product '\(product.vendorProductId)'")
            }
            products.append(product)
        }
        return products
    }
}
