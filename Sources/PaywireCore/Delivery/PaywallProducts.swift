/// `get_paywall_products`: a paywall's products as the store describes them, in the paywall's
/// order, tied to the paywall. The store may answer at once (test store) or through the host,
/// in which case the call is answered when the host is.
final class PaywallProducts {
    private struct Waiting {
        let paywall: PaywallReference
        let waitForValidation: Bool
    }

    private let store: StoreGateway
    private let calls: Calls
    private let log: Log
    /// How long a call waits for the host's store (its request's deadline).
    private let hostTimeout: Int
    /// Calls waiting for the host's store, by call token.
    private var waiting: [UInt64: Waiting] = [:]

    init(store: StoreGateway, calls: Calls, log: Log, hostTimeout: Int) {
        self.store = store
        self.calls = calls
        self.log = log
        self.hostTimeout = hostTimeout
    }

    func get(_ paywall: PaywallReference, waitForValidation: Bool) throws(WireError) -> CallOutcome {
        if let error = store.adapter.unavailable { throw error }
        let operation = StoreOperation.fetchProducts(paywall.productIds)
        let plan = store.adapter.plan(operation)
        if case .now(let outcome) = plan { return .done(respond(paywall, outcome, waitForValidation: waitForValidation)) }
        // Promised before anything is asked: a refused wait asks the host nothing.
        let (token, promised) = try calls.promise("get_paywall_products", waitsOnHost: true, waitLimit: hostTimeout)
        waiting[token] = Waiting(paywall: paywall, waitForValidation: waitForValidation)
        if let outcome = store.carry(plan, operation, for: .productsCall(callToken: token), view: nil) {
            storeReplied(token, outcome)
        }
        return promised
    }

    func storeReplied(_ callToken: UInt64, _ outcome: StoreOutcome) {
        guard let call = waiting.removeValue(forKey: callToken) else { return }
        calls.complete(callToken, respond(call.paywall, outcome, waitForValidation: call.waitForValidation))
    }

    private func respond(_ paywall: PaywallReference, _ outcome: StoreOutcome, waitForValidation: Bool) -> CallResponse {
        switch outcome {
        case .products(.success(let found)): return productsResponse(paywall, found: found, waitForValidation: waitForValidation)
        case .products(.failure(let error)): return .failure(error)
        case .purchase, .restore: return .failure(WireError(.internal, "the store answered a products fetch with another outcome"))
        }
    }

    /// Products the store does not know are left out and reported by a log event.
    private func productsResponse(_ paywall: PaywallReference, found: [StoreProduct], waitForValidation: Bool) -> CallResponse {
        let missing = paywall.productIds.filter { id in !found.contains { $0.vendorProductId == id } }
        if !missing.isEmpty {
            log(.warn, "the store does not know \(missing.count) product(s) of paywall '\(paywall.paywallName)'; they are left out",
                details: [("missing_product_ids", .array(missing.map { .string($0) }))])
        }
        return .success { writer in
            writer.array { writer in
                for (index, id) in paywall.productIds.enumerated() {
                    guard let product = found.first(where: { $0.vendorProductId == id }) else { continue }
                    product.write(to: &writer, paywall: paywall, index: paywall.productIds.firstIndex(of: id) ?? index,
                                  waitForValidation: waitForValidation)
                }
            }
        }
    }
}
