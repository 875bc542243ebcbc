import PaywireModel
import PaywireWire

/// What the part that asked for a restore does with its settlement (a view, or a call).
typealias RestoreReply = (Result<RestoreSettlement, WireError>) -> Void

/// Purchases and restores, from the store's word to the backend's: access is granted at once
/// on the device (unverified), each transaction is kept in the outbox's money lane until the
/// backend answers with the profile (which then is the truth, a refusal included), and the
/// store transaction is finished only after the backend has it, so a crash before then lets
/// the store deliver it again.
final class Purchases {
    let profiles: ProfileStore
    /// The transactions kept for the backend until its verdict.
    let ledger: PurchaseLedger
    let outbox: Outbox
    let store: StoreGateway
    /// Nil without a transport: grants stay local and unverified, and transactions are
    /// finished at once (nothing will confirm them).
    let backend: Backend?
    let calls: Calls
    let log: Log
    let clock: Clock
    /// The records' ids.
    let random: RandomSource
    let attributions: PurchaseAttributions
    let catalog: ProductCatalog
    /// The app completes purchases itself (and finishes its transactions).
    let observerMode: Bool
    /// `make_purchase` and `restore_purchases` calls waiting for the store.
    var callsInFlight: [UInt64: PurchaseCall] = [:]

    init(profiles: ProfileStore, ledger: PurchaseLedger, outbox: Outbox, store: StoreGateway, backend: Backend?, calls: Calls,
         log: Log, clock: Clock, random: RandomSource, attributions: PurchaseAttributions, catalog: ProductCatalog, observerMode: Bool) {
        self.profiles = profiles
        self.ledger = ledger
        self.outbox = outbox
        self.store = store
        self.backend = backend
        self.calls = calls
        self.log = log
        self.clock = clock
        self.random = random
        self.attributions = attributions
        self.catalog = catalog
        self.observerMode = observerMode
        ledger.resume(outbox.keptPurchases())
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
    private func keepForBackend(_ transaction: StoreTransaction, state: PurchaseState, type: ProductType, price: Price?,
                                attribution: PurchaseAttribution?) {
        guard backend != nil else {
            if state == .purchased && !observerMode { ledger.finish(transaction, consume: type == .consumable) }
            return
        }
        let now = clock.nowMilliseconds()
        let eventId = random.uuidV7(milliseconds: now)
        let claim = PurchaseRecord.claim(eventId: eventId, transaction: transaction, state: state, type: type, price: price,
                                         profile: profiles.current, attribution: attribution, observerMode: observerMode, log: log)
        let purchase = PurchaseRecord.Kept(claim, transaction: transaction)
        do throws(WireError) {
            try claim.validate()
            ledger.willKeep(purchase, eventId: eventId)
            try outbox.keepPurchase(eventId: eventId, body: claim.encode())
            ledger.wasKept(purchase)
        } catch {
            ledger.notKept(eventId: eventId)
            log(.error, "could not keep transaction '\(transaction.transactionId)' for the backend: \(error.message); it is not finished",
                details: [("transaction_id", .string(transaction.transactionId))])
        }
    }
}
