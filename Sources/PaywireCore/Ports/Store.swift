import PaywireModel
import PaywireWire

/// The billing provider, as every flow sees it. Three adapters (`NoStore`, `TestStore`,
/// `HostStore`) stand behind it; flows ask for capabilities and operations, never for the
/// kind of store, so test-store scripting stays inside the test store.
protocol StoreAdapter: AnyObject {
    /// Why no operation can start (no billing provider), or nil when the store is there.
    var unavailable: WireError? { get }
    /// Whether the store describes a product only after a fetch, so a purchase must load the
    /// paywall's products first (the host's store); false when it knows its catalog.
    var describesProductsOnlyAfterFetch: Bool { get }
    /// A fixed "now" the store plays against (reproducible expiries), or nil for the real clock.
    var fixedNow: WideInt? { get }
    /// The products among `ids` the store describes without a fetch, in the order asked.
    func knownProducts(_ ids: [String]) -> [StoreProduct]
    /// How `operation` proceeds: an outcome now, after a delay, or through the host.
    func plan(_ operation: StoreOperation) -> StorePlan
    /// The outcome once the delay of a `.after` plan has passed.
    func delayedOutcome(of operation: StoreOperation) -> StoreOutcome
    /// The outcome of a `.askHost` plan, from the host's answer (or its deadline).
    func outcome(of operation: StoreOperation, answer: HostOutcome) -> StoreOutcome
}

/// What is asked of the store.
enum StoreOperation: Sendable {
    case fetchProducts([String])
    /// A purchase of the product, as events and the host request carry it.
    case purchase(ViewProduct)
    case restore
    /// The backend has the transaction (or the store's deadline is near): the store may stop
    /// delivering it; `consume` uses up a consumable.
    case finishTransaction(StoreTransaction, consume: Bool)
    /// Settle intro-offer eligibility (validate the receipt) for these products.
    case refreshEligibility([String])
    /// What the user owns now, by the store's word (offline access).
    case currentEntitlements
}

/// How an operation proceeds.
enum StorePlan {
    case now(StoreOutcome)
    /// The outcome comes after this many ms (`delayedOutcome`).
    case after(WideInt)
    /// The host carries it: a `host_request` of this kind with this payload (`outcome(of:answer:)`).
    case askHost(HostRequestKind, payload: (inout JSONWriter) -> Void)
}

/// How an operation ended.
enum StoreOutcome: Sendable {
    case products(Result<[StoreProduct], WireError>)
    case purchase(PurchaseOutcome)
    case restore(RestoreOutcome)
    /// A finish or an eligibility refresh ended; the error when it did not work.
    case done(WireError?)
    /// Settled eligibility by product id (products the store did not settle are left out).
    case eligibility([String: OfferEligibility])
    /// The store's current entitlements: a transaction for each product the user owns now.
    case entitlements(Result<[StoreTransaction], WireError>)
}

enum PurchaseOutcome: Sendable {
    /// Bought. `transaction` is what the backend validates (nil when the host reported none:
    /// access then stays unverified); `expiresAt` is the store's word on until when.
    case succeeded(transaction: StoreTransaction?, expiresAt: WideInt?)
    case cancelled
    /// Waiting for the store (parental approval, a pending payment): nothing granted yet.
    case pending(StoreTransaction?)
    case failed(WireError)
}

enum RestoreOutcome: Sendable {
    /// What the store says the user owns: the products, and their transactions when it gives them.
    case restored(productIds: [String], transactions: [StoreTransaction])
    case failed(WireError)
}

#if DEBUG
// Tests compare these; the release library never does and leaves their == out (20 KB in all).
extension StoreOperation: Equatable {}
extension StoreOutcome: Equatable {}
extension PurchaseOutcome: Equatable {}
extension RestoreOutcome: Equatable {}
#endif
