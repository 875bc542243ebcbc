import PaywireModel
import PaywireWire

/// `get_paywall_products`: a paywall's products as the store describes them, in the paywall's
/// order, tied to the paywall, each with its text tags filled (`text_tags`). The store may
/// answer at once (test store) or through the host, in which case the call is answered when the
/// host is. With `wait_for_receipt_validation`, eligibility the store left `unknown` is settled
/// by the store first (a receipt refresh); what is still not settled when the store's deadline
/// passes stays `unknown`, never `eligible`. `get_remote_config` loads the products the same
/// way and answers the paywall's remote config with its tags filled.
final class PaywallProducts {
    /// What a call answers once the products are described.
    enum Answer: Sendable {
        case products
        case remoteConfig
    }

    private struct Waiting {
        let paywall: PaywallReference
        let answer: Answer
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

    func get(_ paywall: PaywallReference, answer: Answer = .products, waitForValidation: Bool) throws(WireError) -> CallOutcome {
        if let error = store.unavailable { throw error }
        var operation = StoreOperation.fetchProducts(paywall.productIds)
        var plan = store.plan(operation)
        var call = Waiting(paywall: paywall, answer: answer, waitForValidation: waitForValidation)
        if case .now(.products(.failure(let error))) = plan { throw error }
        if case .now(.products(.success(let found))) = plan {
            catalog.remember(found)
            let unsettled = PaywallProducts.unsettled(found)
            guard waitForValidation && !unsettled.isEmpty else { return .done(response(call, found: found)) }
            call.loaded = found
            operation = .refreshEligibility(unsettled)
            plan = store.plan(operation)
            if case .now(.eligibility(let settled)) = plan { return .done(response(call, found: PaywallProducts.apply(settled, found))) }
        }
        // Promised before anything is asked: a refused wait asks the host nothing.
        let method = answer == .products ? "get_paywall_products" : "get_remote_config"
        let (token, promised) = try calls.promise(method, waitsOnHost: true, budget: 2 * store.hostTimeout)
        waiting[token] = call
        if let outcome = store.carry(plan, operation, origin: nil, reply: { [self] in self.storeReplied(token, $0) }) {
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
                calls.complete(callToken, response(call, found: found))
                return
            }
            call.loaded = found
            waiting[callToken] = call
            let reply: StoreReply = { [self] in self.storeReplied(callToken, $0) }
            if let settled = store.start(.refreshEligibility(unsettled), origin: nil, reply: reply) {
                storeReplied(callToken, settled)
            }
        case .eligibility(let settled):
            calls.complete(callToken, response(call, found: PaywallProducts.apply(settled, call.loaded ?? [])))
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

    /// The described products of the base plan the paywall names for each (any, when it names none).
    private static func served(_ paywall: PaywallReference, _ described: [StoreProduct]) -> [StoreProduct] {
        described.filter { product in product.serves(paywall.products.first { $0.vendorProductId == product.vendorProductId }) }
    }

    /// Products with an intro offer whose eligibility the store has not settled.
    private static func unsettled(_ products: [StoreProduct]) -> [String] {
        products.filter { $0.introOffer != nil && $0.eligibility == .unknown }.map { $0.vendorProductId }
    }

    private func response(_ call: Waiting, found: [StoreProduct]) -> CallResponse {
        switch call.answer {
        case .products: return productsResponse(call.paywall, found: found)
        case .remoteConfig: return remoteConfigResponse(call.paywall, found: found)
        }
    }

    /// Products the store does not know are left out and reported by a log event; so are
    /// products described for another base plan than the paywall names (Google Play).
    private func productsResponse(_ paywall: PaywallReference, found described: [StoreProduct]) -> CallResponse {
        let found = PaywallProducts.served(paywall, described)
        let missing = paywall.productIds.filter { id in !found.contains { $0.vendorProductId == id } }
        if !missing.isEmpty {
            log(.warn, "the store does not know \(missing.count) product(s) of paywall '\(paywall.paywallName)' (or not the base plan it names); they are left out",
                details: [("missing_product_ids", .array(missing.map { .string($0) }))])
        }
        let tags = TextTagResolver(paywallProductIds: paywall.productIds, described: found, offerIds: paywall.offerIds)
        return .success { writer in
            writer.array { writer in
                for (index, id) in paywall.productIds.enumerated() {
                    guard let product = found.first(where: { $0.vendorProductId == id }) else { continue }
                    product.write(to: &writer, paywall: paywall, index: paywall.productIds.firstIndex(of: id) ?? index,
                                  textTags: tags.table(for: id))
                }
            }
        }
    }

    /// The paywall's remote config with its tags filled; `data` that is JSON is filled string by
    /// string (an object whose `product_id` names a product of the paywall is about that
    /// product) and, when a tag was filled, written back as compact JSON. Null without one.
    private func remoteConfigResponse(_ paywall: PaywallReference, found described: [StoreProduct]) -> CallResponse {
        guard let config = paywall.remoteConfig else { return .success { writer in writer.null() } }
        let found = PaywallProducts.served(paywall, described)
        let tags = TextTagResolver(paywallProductIds: paywall.productIds, described: found, offerIds: paywall.offerIds)
        let data: String
        let map: JSONValue
        if let parsed = try? JSONParser.parse(config.data) {
            let (filled, problems) = tags.fill(parsed, product: nil)
            log.tagsLeftAsWritten(problems, in: "remote_config")
            data = filled == parsed ? config.data : String(decoding: JSONWriter.encode(filled), as: UTF8.self)
            if case .object = filled { map = filled } else { map = .null }
        } else {
            let (filled, problems) = tags.fill(config.data, product: nil)
            log.tagsLeftAsWritten(problems, in: "remote_config")
            data = filled
            map = .null
        }
        return .success { writer in
            writer.object { writer in
                writer.member("lang", config.lang)
                writer.member("data", data)
                writer.member("data_map", map)
            }
        }
    }
}
