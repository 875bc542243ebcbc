import PaywireModel
import PaywireWire

/// `get_paywall_products`: a paywall's products as the store describes them, in the paywall's
/// order, tied to the paywall. The store may answer at once (test store) or through the host,
/// in which case the call is answered when the host is. With `wait_for_receipt_validation`,
/// eligibility the store left `unknown` is settled by the store first (a receipt refresh);
/// what is still not settled when the store's deadline passes stays `unknown`, never
/// `eligible`.
final class PaywallProducts {
    private struct Waiting {
        let paywall: PaywallReference
        let waitForValidation: Bool
        /// The products, once loaded, while eligibility is being settled.
        var loaded: [StoreProduct]?
    }

    private let store: StoreGateway
    private let calls: Calls
    private let log: Log
    private let catalog: ProductCatalog
    /// Calls waiting for the store, by call token.
    private var waiting: [UInt64: Waiting] = [:]

    init(store: StoreGateway, calls: Calls, log: Log, catalog: ProductCatalog) {
        self.store = store
        self.calls = calls
        self.log = log
        self.catalog = catalog
    }

    func get(_ paywall: PaywallReference, waitForValidation: Bool) throws(WireError) -> CallOutcome {
        if let error = store.unavailable { throw error }
        var operation = StoreOperation.fetchProducts(paywall.productIds)
        var plan = store.plan(operation)
        var call = Waiting(paywall: paywall, waitForValidation: waitForValidation)
        if case .now(.products(.failure(let error))) = plan { throw error }
        if case .now(.products(.success(let found))) = plan {
            catalog.remember(found)
            let unsettled = PaywallProducts.unsettled(found)
            guard waitForValidation && !unsettled.isEmpty else { return .done(productsResponse(paywall, found: found)) }
            call.loaded = found
            operation = .refreshEligibility(unsettled)
            plan = store.plan(operation)
            if case .now(.eligibility(let settled)) = plan { return .done(productsResponse(paywall, found: PaywallProducts.apply(settled, found))) }
        }
        // Promised before anything is asked: a refused wait asks the host nothing.
        let (token, promised) = try calls.promise("get_paywall_products", waitsOnHost: true, budget: 2 * store.hostTimeout)
        waiting[token] = call
        if let outcome = store.carry(plan, operation, origin: nil, reply: { [weak self] in self?.storeReplied(token, $0) }) {
            storeReplied(token, outcome)
        }
        return promised
    }

    private func storeReplied(_ callToken: UInt64, _ outcome: StoreOutcome) {
        guard var call = waiting.removeValue(forKey: callToken) else { return }
        switch outcome {
        case .products(.failure(let error)):
            calls.complete(callToken, .failure(error))
        case .products(.success(let found)):
            catalog.remember(found)
            let unsettled = PaywallProducts.unsettled(found)
            guard call.waitForValidation, !unsettled.isEmpty else {
                calls.complete(callToken, productsResponse(call.paywall, found: found))
                return
            }
            call.loaded = found
            waiting[callToken] = call
            let reply: StoreReply = { [weak self] in self?.storeReplied(callToken, $0) }
            if let settled = store.start(.refreshEligibility(unsettled), origin: nil, reply: reply) {
                storeReplied(callToken, settled)
            }
        case .eligibility(let settled):
            calls.complete(callToken, productsResponse(call.paywall, found: PaywallProducts.apply(settled, call.loaded ?? [])))
        default:
            calls.complete(callToken, .failure(WireError(.internal, "the store answered a products fetch with another outcome")))
        }
    }

    private static func apply(_ settled: [String: OfferEligibility], _ products: [StoreProduct]) -> [StoreProduct] {
        products.map { product in
            var settledProduct = product
            if let eligibility = settled[product.vendorProductId] { settledProduct.eligibility = eligibility }
            return settledProduct
        }
    }

    /// Products with an intro offer whose eligibility the store has not settled.
    private static func unsettled(_ products: [StoreProduct]) -> [String] {
        products.filter { $0.introOffer != nil && $0.eligibility == .unknown }.map(\.vendorProductId)
    }

    /// Products the store does not know are left out and reported by a log event.
    private func productsResponse(_ paywall: PaywallReference, found: [StoreProduct]) -> CallResponse {
        let missing = paywall.productIds.filter { id in !found.contains { $0.vendorProductId == id } }
        if !missing.isEmpty {
            log(.warn, "the store does not know \(missing.count) product(s) of paywall '\(paywall.paywallName)'; they are left out",
                details: [("missing_product_ids", .array(missing.map { .string($0) }))])
        }
        return .success { writer in
            writer.array { writer in
                for (index, id) in paywall.productIds.enumerated() {
                    guard let product = found.first(where: { $0.vendorProductId == id }) else { continue }
                    product.write(to: &writer, paywall: paywall, index: paywall.productIds.firstIndex(of: id) ?? index)
                }
            }
        }
    }
}
