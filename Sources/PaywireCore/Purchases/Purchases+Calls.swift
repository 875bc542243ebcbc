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
        if case .now(.purchase(let outcome)) = plan { return answer(bought, outcome, token: nil) }
        let (token, promised) = try calls.promise("make_purchase", waitsOnHost: Purchases.asksHost(plan), budget: budget(plan))
        callsInFlight[token] = .purchase(bought)
        let reply: StoreReply = { [self] in self.purchaseCallReplied(token, $0) }
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
        sign(offer, for: bought) { [self] result in self.offerSigned(token, result) }
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
            let reply: StoreReply = { [self] in self.purchaseCallReplied(callToken, $0) }
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
        let reply: StoreReply = { [self] in self.purchaseCallReplied(token, $0) }
        if let outcome = store.carry(plan, .restore, origin: nil, reply: reply) { purchaseCallReplied(token, outcome) }
        return promised
    }

    /// The store's outcome for a call.
    private func purchaseCallReplied(_ callToken: UInt64, _ outcome: StoreOutcome) {
        guard let call = callsInFlight.removeValue(forKey: callToken) else { return }
        switch (call, outcome) {
        case (.purchase(let bought), .purchase(let purchase)):
            if case .done(let response) = answer(bought, purchase, token: callToken) { calls.complete(callToken, response) }
        case (.restore, .restore(.failed(let error))):
            calls.complete(callToken, .failure(error))
        case (.restore, .restore(.restored(let productIds, let transactions))):
            let reply: RestoreReply = { [self] result in self.restoreCallSettled(callToken, result) }
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

    /// How long a test purchase's call waits for the backend's verdict before it answers with
    /// the access granted on the device (unverified; the verdict still applies when it comes).
    static let testVerdictBudget: WideInt = 5000

    /// The call's answer to the store's outcome: now, or, for a test-store purchase with a
    /// backend, once the backend has judged it (`token` is the call's promise when it has one).
    /// A server that does not take test purchases (one not in development mode) then makes it a
    /// failed purchase, `unsupported_store`, instead of a success the backend revokes a moment
    /// later, out of the host's sight.
    private func answer(_ bought: ViewProduct, _ outcome: PurchaseOutcome, token: UInt64?) -> CallOutcome {
        let response = purchaseResponse(bought, outcome)
        guard response.status == .ok, let backend, !observerMode, case .succeeded(let transaction?, _) = outcome,
              transaction.store == .test, ledger.awaitsVerdict(transaction.transactionId) else { return .done(response) }
        let budget = min(backend.requestTimeout, Purchases.testVerdictBudget)
        var promised: CallOutcome?
        let callToken: UInt64
        if let token {
            callToken = token
        } else {
            // A synchronous call whose backend the host carries cannot wait: it answers now.
            guard let promise = try? calls.promise("make_purchase", waitsOnHost: backend.carriedByHost, budget: budget) else {
                return .done(response)
            }
            (callToken, promised) = (promise.token, promise.outcome)
        }
        ledger.awaitVerdict(transaction.transactionId, within: budget) { [self] verdict in
            switch verdict {
            case .refused(let status, let code, let message)?:
                self.calls.complete(callToken, .failure(Purchases.refusedTestPurchase(transaction, status: status, code: code, message: message)))
            case .accepted?, nil:
                self.calls.complete(callToken, self.successResponse("success", productId: bought.productId, transaction: transaction))
            }
        }
        return promised ?? .pending(token: callToken, waitLimitMilliseconds: budget + Calls.answerSlackMilliseconds)
    }

    /// The failure a refused test purchase answers with: `unsupported_store` from a server
    /// without the test store says how to turn it on.
    static func refusedTestPurchase(_ transaction: StoreTransaction, status: Int, code: String?, message: String?) -> WireError {
        let details = JSONObject([("transaction_id", .string(transaction.transactionId)), ("status", .number(JSONNumber(status))),
                                  ("backend_code", code.map(JSONValue.string) ?? .null)])
        if code.flatMap(RefusalCode.init(rawValue:)) == .unsupportedStore {
            return WireError(.unsupportedStore,
                             "the backend does not take test-store purchases: it is not in development mode. Start the server with --dev "
                                 + "(or give it --test-signing-key) to try purchases against it; the access this purchase gave is revoked",
                             details: details)
        }
        return WireError(.purchaseFailed, "the backend refused the purchase (\(code ?? "HTTP \(status)")): \(message ?? "no reason given"); "
                             + "the access it gave is revoked", details: details)
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
        return successResponse(type, productId: bought.productId, transaction: transaction)
    }

    /// `{type, product_id, transaction?, profile}` with the profile as it is now.
    private func successResponse(_ type: String, productId: String, transaction: StoreTransaction?) -> CallResponse {
        let profile = profiles.current
        let now = profiles.accessNow()
        return .success { writer in
            writer.object { writer in
                writer.member("type", type)
                writer.member("product_id", productId)
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
    private func budget(_ plan: StorePlan) -> WideInt {
        switch plan {
        case .after(let milliseconds): return milliseconds
        case .now, .askHost: return store.hostTimeout
        }
    }
}
