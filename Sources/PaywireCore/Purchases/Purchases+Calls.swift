import PaywireModel
import PaywireWire

/// A `make_purchase` or `restore_purchases` call waiting for the store.
enum PurchaseCall: Sendable {
    case purchase(ViewProduct)
    case restore
}

/// Purchases without a view, for apps that draw their own paywall: the same store adapters,
/// deadlines, outbox and results as a view's, and profile events instead of view events.
extension Purchases {
    /// `make_purchase`: `{type: success | pending | user_cancelled, product_id, transaction?,
    /// profile}`, or the store's error. With an offer (asked for, or named by the paywall's
    /// product) the backend signs it first. A `subscriptionUpdate` (Google Play) goes to the store
    /// with the purchase, unchanged.
    func makePurchase(productId: String, paywall: PaywallReference?, offer requested: PurchaseOffer? = nil,
                      subscriptionUpdate: SubscriptionUpdate? = nil) throws(WireError) -> CallOutcome {
        if observerMode {
            throw WireError(.invalidState, "observer mode: the app makes purchases itself and reports them with report_transaction")
        }
        if let error = store.unavailable { throw error }
        if callsInFlight.values.contains(where: { if case .purchase = $0 { return true } else { return false } }) {
            throw WireError(.purchaseInProgress, "a purchase is already in progress")
        }
        let bought = ViewProduct(productId: productId, product: catalog.product(productId), paywall: paywall,
                                 subscriptionUpdate: subscriptionUpdate)
        if let offer = bought.offerToSign(requested: requested) { return try purchase(bought, with: offer) }
        purchaseStarting(bought)
        let operation = StoreOperation.purchase(bought)
        let plan = store.plan(operation)
        if case .now(.purchase(let outcome)) = plan { return .done(purchaseResponse(bought, outcome)) }
        let (token, promised) = try calls.promise("make_purchase", waitsOnHost: Purchases.asksHost(plan), budget: budget(plan))
        callsInFlight[token] = .purchase(bought)
        let reply: StoreReply = { [weak self] in self?.purchaseCallReplied(token, $0) }
        if let outcome = store.carry(plan, operation, origin: nil, reply: reply) { purchaseCallReplied(token, outcome) }
        return promised
    }

    /// A purchase with an offer: the backend signs the offer for this profile (or refuses it),
    /// then the store is asked with the signature. Without a backend nothing can sign it: the
    /// store would refuse an unsigned offer, so the call fails before anything is asked.
    private func purchase(_ bought: ViewProduct, with offer: PurchaseOffer) throws(WireError) -> CallOutcome {
        guard let backend else { throw Purchases.offerNeedsBackend(offer, productId: bought.productId) }
        let plan = store.plan(.purchase(bought))
        let waitsOnHost = backend.carriedByHost || Purchases.asksHost(plan)
        let (token, promised) = try calls.promise("make_purchase", waitsOnHost: waitsOnHost, budget: backend.requestTimeout + budget(plan))
        purchaseStarting(bought)
        callsInFlight[token] = .purchase(bought)
        sign(offer, for: bought) { [weak self] result in self?.offerSigned(token, result) }
        return promised
    }

    /// The backend's answer to an offer signing: the store is asked with the signature, or the
    /// call fails with the refusal.
    private func offerSigned(_ callToken: UInt64, _ result: Result<ViewProduct, WireError>) {
        guard case .purchase? = callsInFlight[callToken] else { return }
        switch result {
        case .failure(let error):
            callsInFlight.removeValue(forKey: callToken)
            calls.complete(callToken, .failure(error))
        case .success(let signedProduct):
            callsInFlight[callToken] = .purchase(signedProduct)
            let operation = StoreOperation.purchase(signedProduct)
            let reply: StoreReply = { [weak self] in self?.purchaseCallReplied(callToken, $0) }
            if let outcome = store.start(operation, origin: nil, reply: reply) { purchaseCallReplied(callToken, outcome) }
        }
    }

    /// `restore_purchases`: `{restored_product_ids, profile}`, or the store's or the backend's error.
    func restorePurchases() throws(WireError) -> CallOutcome {
        if let error = store.unavailable { throw error }
        if callsInFlight.values.contains(where: { if case .restore = $0 { return true } else { return false } }) {
            throw WireError(.restoreInProgress, "a restore is already in progress")
        }
        let plan = store.plan(.restore)
        // The backend (or a lookup through the host's store) may be waited on after the store.
        let waitsOnHost = Purchases.asksHost(plan) || (backend?.carriedByHost ?? false)
            || (backend == nil && store.describesProductsOnlyAfterFetch)
        let (token, promised) = try calls.promise("restore_purchases", waitsOnHost: waitsOnHost, budget: 2 * budget(plan))
        callsInFlight[token] = .restore
        let reply: StoreReply = { [weak self] in self?.purchaseCallReplied(token, $0) }
        if let outcome = store.carry(plan, .restore, origin: nil, reply: reply) { purchaseCallReplied(token, outcome) }
        return promised
    }

    /// The store's outcome for a call.
    private func purchaseCallReplied(_ callToken: UInt64, _ outcome: StoreOutcome) {
        guard let call = callsInFlight.removeValue(forKey: callToken) else { return }
        switch (call, outcome) {
        case (.purchase(let bought), .purchase(let purchase)):
            calls.complete(callToken, purchaseResponse(bought, purchase))
        case (.restore, .restore(.failed(let error))):
            calls.complete(callToken, .failure(error))
        case (.restore, .restore(.restored(let productIds, let transactions))):
            let reply: RestoreReply = { [weak self] result in self?.restoreCallSettled(callToken, result) }
            if let result = settleRestore(productIds: productIds, transactions: transactions, reply: reply) {
                restoreCallSettled(callToken, result)
            }
        default:
            calls.complete(callToken, .failure(WireError(.internal, "the store answered with another outcome")))
        }
    }

    private func restoreCallSettled(_ callToken: UInt64, _ result: Result<RestoreSettlement, WireError>) {
        calls.complete(callToken, Purchases.restoreResponse(result, profiles: profiles, now: profiles.accessNow()))
    }

    /// `report_transaction {transaction, paywall?, state?}`: a purchase the app made itself
    /// (observer mode) or one the store delivered again (after a restart): granted, and posted
    /// to the backend (idempotently, on its transaction id). Answers the profile. A transaction
    /// without `purchased_at` was bought now, by this part's clock.
    func reportTransaction(_ fields: Fields, paywall: PaywallReference?, pending: Bool) throws(WireError) -> CallResponse {
        let transaction = try StoreTransaction(fields, productId: nil, now: clock.nowMilliseconds())
        let product = catalog.product(transaction.vendorProductId)
        let outcome: PurchaseOutcome = pending ? .pending(transaction) : .succeeded(transaction: transaction, expiresAt: transaction.expiresAt)
        if let error = settle(outcome, productId: transaction.vendorProductId, product: product, paywall: paywall) { return .failure(error) }
        let profile = profiles.current
        let now = profiles.accessNow()
        return .success { writer in writer.object { writer in
            writer.key("profile")
            profile.write(to: &writer, now: now)
        } }
    }

    private func purchaseResponse(_ bought: ViewProduct, _ outcome: PurchaseOutcome) -> CallResponse {
        let type: String
        var transaction: StoreTransaction?
        switch outcome {
        case .failed(let error): return .failure(error)
        case .cancelled: type = "user_cancelled"
        case .pending(let pending):
            type = "pending"
            transaction = pending
        case .succeeded(let bought, _):
            type = "success"
            transaction = bought
        }
        if type != "user_cancelled", let error = settle(outcome, productId: bought.productId, product: bought.product, paywall: bought.paywall) {
            return .failure(error)
        }
        let profile = profiles.current
        let now = profiles.accessNow()
        return .success { writer in
            writer.object { writer in
                writer.member("type", type)
                writer.member("product_id", bought.productId)
                if let transaction {
                    writer.key("transaction")
                    transaction.writeSummary(to: &writer)
                }
                writer.key("profile")
                profile.write(to: &writer, now: now)
            }
        }
    }

    private static func asksHost(_ plan: StorePlan) -> Bool {
        if case .askHost = plan { return true }
        return false
    }

    /// How long the store may take to answer.
    private func budget(_ plan: StorePlan) -> Int {
        switch plan {
        case .after(let milliseconds): return milliseconds
        case .now, .askHost: return store.hostTimeout
        }
    }
}
