import PaywireModel
import PaywireWire

/// Every product the store has described to this client (a products load of any view or call,
/// or the test store's catalog), so a restore can grant products no view loaded.
final class ProductCatalog {
    private var products: [String: StoreProduct] = [:]
    private let store: StoreGateway

    init(store: StoreGateway) { self.store = store }

    func remember(_ described: [StoreProduct]) {
        for product in described { products[product.vendorProductId] = product }
    }

    func product(_ id: String) -> StoreProduct? { products[id] ?? store.knownProducts([id]).first }
}
