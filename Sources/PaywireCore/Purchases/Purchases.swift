import PaywireModel
import PaywireWire

/// What the part that asked for a restore does with its settlement (a view, or a call).
typealias RestoreReply = (Result<RestoreSettlement, WireError>) -> Void

/// Purchases and restores, from the store's word to the backend's: access is granted at once
/// on the device (unverified), each transaction is kept in the outbox's money lane until the
/// backend answers with the profile (which then is the truth, a refusal included), and the
/// store transaction is finished only after the backend has it, so a crash before then lets
/// the store deliver it again.
final class Purchases: PurchaseAnswers {
    let profiles: ProfileStore
    let outbox: Outbox
    let store: StoreGateway
    /// Nil without a transport: grants stay local and unverified, and transactions are
    /// finished at once (nothing will confirm them).
    let backend: Backend?
    let calls: Calls
    let log: Log
    let clock: Clock
    let attributions: PurchaseAttributions
    let catalog: ProductCatalog
    /// The app completes purchases itself (and finishes its transactions).
    let observerMode: Bool
    /// Transactions kept for the backend and not answered yet: their local grants stand until
    /// it answers.
    private(set) var pendingTransactions = Set<String>()
    /// `make_purchase` and `restore_purchases` calls waiting for the store.
    var callsInFlight: [UInt64: PurchaseCall] = [:]
    let timers: Timers
    /// How long after a purchase the store is told it is done even without the backend's word.
    let acknowledgeAfter: Int
    /// Store deadlines of transactions kept for the backend, by transaction id.
    var storeDeadlines: [String: StoreDeadline] = [:]

    init(profiles: ProfileStore, outbox: Outbox, store: StoreGateway, backend: Backend?, calls: Calls, log: Log, clock: Clock,
         timers: Timers, attributions: PurchaseAttributions, catalog: ProductCatalog, observerMode: Bool, acknowledgeAfter: Int) {
        self.profiles = profiles
        self.outbox = outbox
        self.store = store
        self.backend = backend
        self.calls = calls
        self.log = log
        self.clock = clock
        self.attributions = attributions
        self.catalog = catalog
        self.observerMode = observerMode
        self.timers = timers
        self.acknowledgeAfter = acknowledgeAfter
        let records = outbox.keptPurchases().compactMap { PurchaseRecord.kept($0.body) }
        pendingTransactions = Set(records.map(\.transaction.transactionId))
        for record in records where record.finishedByCore && !record.isPending {
            watchStoreDeadline(record.transaction, type: record.productType)
        }
        outbox.answerPurchases(with: self)
    }

    /// A purchase is about to start: what it is attributed to is kept first, durably.
    func purchaseStarting(_ product: ViewProduct) {
        guard let paywall = product.paywall else { return }
        do throws(WireError) {
            try attributions.remember(PurchaseAttribution(paywall), for: product.productId, now: clock.nowMilliseconds())
        } catch {
            log(.error, "could not keep the attribution of the purchase of '\(product.productId)': \(error.message)")
        }
    }

    /// Grants and keeps a purchase the store completed (or left pending). Returns the error when
    /// the access could not be kept: the host must then hear a failure, not a success.
    func settle(_ outcome: PurchaseOutcome, productId: String, product: StoreProduct?, paywall: PaywallReference?) -> WireError? {
        let attribution = attributions.take(productId) ?? paywall.map(PurchaseAttribution.init)
        switch outcome {
        case .succeeded(let transaction, let expiresAt):
            let facts = PurchaseFacts.resolve(productId: productId, named: paywall?.products.first { $0.vendorProductId == productId },
                                              transaction: transaction, product: product,
                                              purchasedAt: transaction?.purchasedAt ?? clock.nowMilliseconds(), storeExpiresAt: expiresAt)
            if let error = profiles.grantLocally([AccessRules.decide(facts)]) { return error }
            guard let transaction else {
                if backend != nil {
                    log(.warn, "the purchase of '\(productId)' came without a transaction: the backend cannot confirm it, its access stays unverified",
                        details: [("product_id", .string(productId))])
                }
                return nil
            }
            keepForBackend(transaction, state: .purchased, type: facts.productType, price: product?.price, attribution: attribution)
        case .pending(let transaction?):
            let type = PurchaseFacts.resolve(productId: productId, named: paywall?.products.first { $0.vendorProductId == productId },
                                             transaction: transaction, product: product, purchasedAt: transaction.purchasedAt,
                                             storeExpiresAt: nil).productType
            keepForBackend(transaction, state: .pending, type: type, price: product?.price, attribution: attribution)
        case .pending(nil), .cancelled, .failed:
            break
        }
        return nil
    }

    /// Keeps a transaction in the money lane. Without a backend nothing will confirm it: it is
    /// finished now. A transaction the queue could not keep is not finished either, so the
    /// store delivers it again.
    private func keepForBackend(_ transaction: StoreTransaction, state: PurchaseRecord.State, type: ProductType, price: Price?,
                                attribution: PurchaseAttribution?) {
        guard backend != nil else {
            if state == .purchased && !observerMode { finish(transaction, consume: type == .consumable) }
            return
        }
        let now = clock.nowMilliseconds()
        let eventId = UUIDs.v7(milliseconds: now)
        let body = PurchaseRecord.encode(eventId: eventId, transaction: transaction, state: state, type: type, price: price,
                                         profile: profiles.current, attribution: attribution, observerMode: observerMode)
        do throws(WireError) {
            pendingTransactions.insert(transaction.transactionId)
            try outbox.keepPurchase(eventId: eventId, body: body)
            if state == .purchased && !observerMode { watchStoreDeadline(transaction, type: type) }
        } catch {
            pendingTransactions.remove(transaction.transactionId)
            log(.error, "could not keep transaction '\(transaction.transactionId)' for the backend: \(error.message); it is not finished",
                details: [("transaction_id", .string(transaction.transactionId))])
        }
    }

    /// Asks the store to finish a transaction (the host's store; the test store has nothing to
    /// do): `consume` uses up a consumable, which only the backend's word may allow.
    func finish(_ transaction: StoreTransaction, consume: Bool) {
        let log = self.log
        _ = store.start(.finishTransaction(transaction, consume: consume), view: nil) { outcome in
            if case .done(let error?) = outcome { log(.warn, "the store could not finish a transaction: \(error.message)") }
        }
    }

    // MARK: - The backend's answers to purchase records

    func delivered(_ record: OutboxRecord, response: HTTPResponse) {
        guard let kept = PurchaseRecord.kept(record.body) else { return }
        pendingTransactions.remove(kept.transaction.transactionId)
        if let snapshot = PurchaseRecord.answer(response.body).profile {
            _ = profiles.applyBackend(snapshot, profileId: kept.profileId, pending: pendingTransactions)
        }
        if kept.finishedByCore { finishAnswered(kept.transaction, consume: kept.productType == .consumable) }
    }

    func refused(_ record: OutboxRecord, response: HTTPResponse) {
        guard let kept = PurchaseRecord.kept(record.body) else { return }
        let transactionId = kept.transaction.transactionId
        pendingTransactions.remove(transactionId)
        let answer = PurchaseRecord.answer(response.body)
        log(.warn, "the backend refused transaction '\(transactionId)' (\(answer.code ?? "HTTP \(response.status)")): "
                + "\(answer.message ?? "no reason given"); the access it gave is revoked",
            details: [("transaction_id", .string(transactionId)), ("code", .string(answer.code ?? "http_\(response.status)")),
                      ("status", .number(JSONNumber(response.status)))])
        if let snapshot = answer.profile {
            _ = profiles.applyBackend(snapshot, profileId: kept.profileId, pending: pendingTransactions)
        } else {
            _ = profiles.revoke(transactionId: transactionId)
        }
        // The backend has judged it: the store need not deliver it again. A refused consumable
        // is not consumed: the backend did not vouch for it.
        if kept.finishedByCore { finishAnswered(kept.transaction, consume: false) }
    }
}
