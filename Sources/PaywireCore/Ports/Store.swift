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
    var fixedNow: Int? { get }
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
enum StoreOperation: Equatable, Sendable {
    case fetchProducts([String])
    /// A purchase of the product, as events and the host request carry it.
    case purchase(ViewProduct)
    case restore
    /// The backend has the transaction (or the store's deadline is near): the store may stop
    /// delivering it; `consume` uses up a consumable.
    case finishTransaction(StoreTransaction, consume: Bool)
    /// Settle intro-offer eligibility (validate the receipt) for these products.
    case refreshEligibility([String])
}

/// Who asked the store, so the outcome finds its way back.
enum StoreTicket: Equatable, Sendable {
    /// `PaywallViews`: a view's products load, purchase or restore.
    case paywallView(viewId: String)
    /// `PaywallProducts`: a `get_paywall_products` call.
    case productsCall(callToken: UInt64)
    /// `Purchases`: a `make_purchase` or `restore_purchases` call.
    case purchaseCall(callToken: UInt64)
    /// `Purchases`: the products a restore must describe before it grants them.
    case restoreLookup(RestoreRequester, productIds: [String], transactions: [StoreTransaction])
    /// `Purchases`: work of its own (finishing transactions); the outcome is only logged.
    case purchases
}

/// How an operation proceeds.
enum StorePlan {
    case now(StoreOutcome)
    /// The outcome comes after this many ms (`delayedOutcome`).
    case after(Int)
    /// The host carries it: a `host_request` of this kind with this payload (`outcome(of:answer:)`).
    case askHost(HostRequestKind, payload: (inout JSONWriter) -> Void)
}

/// How an operation ended.
enum StoreOutcome: Equatable, Sendable {
    case products(Result<[StoreProduct], WireError>)
    case purchase(PurchaseOutcome)
    case restore(RestoreOutcome)
    /// A finish or an eligibility refresh ended; the error when it did not work.
    case done(WireError?)
    /// Settled eligibility by product id (products the store did not settle are left out).
    case eligibility([String: OfferEligibility])
}

enum PurchaseOutcome: Equatable, Sendable {
    /// Bought. `transaction` is what the backend validates (nil when the host reported none:
    /// access then stays unverified); `expiresAt` is the store's word on until when.
    case succeeded(transaction: StoreTransaction?, expiresAt: Int?)
    case cancelled
    /// Waiting for the store (parental approval, a pending payment): nothing granted yet.
    case pending(StoreTransaction?)
    case failed(WireError)
}

enum RestoreOutcome: Equatable, Sendable {
    /// What the store says the user owns: the products, and their transactions when it gives them.
    case restored(productIds: [String], transactions: [StoreTransaction])
    case failed(WireError)
}

/// `store: {"type": "none"}`: no billing provider; every operation fails at once.
final class NoStore: StoreAdapter {
    var unavailable: WireError? { WireError(.billingUnavailable, "no billing provider is configured (store.type is none)") }
    var describesProductsOnlyAfterFetch: Bool { false }
    var fixedNow: Int? { nil }
    func knownProducts(_ ids: [String]) -> [StoreProduct] { [] }
    func plan(_ operation: StoreOperation) -> StorePlan { .now(delayedOutcome(of: operation)) }
    func outcome(of operation: StoreOperation, answer: HostOutcome) -> StoreOutcome { delayedOutcome(of: operation) }

    func delayedOutcome(of operation: StoreOperation) -> StoreOutcome {
        let error = unavailable ?? WireError(.billingUnavailable, "no billing provider")
        switch operation {
        case .fetchProducts: return .products(.failure(error))
        case .purchase: return .purchase(.failed(error))
        case .restore: return .restore(.failed(error))
        case .finishTransaction: return .done(error)
        case .refreshEligibility: return .eligibility([:])
        }
    }
}

/// `store: {"type": "host"}`: the host's store (StoreKit, Play Billing, ...), asked through
/// `host_request` events: `store.fetch_products {product_ids}`, `store.purchase {product}`,
/// `store.restore {}`.
final class HostStore: StoreAdapter {
    /// The clock transactions without a purchase time are dated by.
    private let now: () -> Int

    init(now: @escaping () -> Int) { self.now = now }

    var unavailable: WireError? { nil }
    var describesProductsOnlyAfterFetch: Bool { true }
    var fixedNow: Int? { nil }
    func knownProducts(_ ids: [String]) -> [StoreProduct] { [] }

    func plan(_ operation: StoreOperation) -> StorePlan {
        switch operation {
        case .fetchProducts(let ids):
            return .askHost(.storeFetchProducts) { writer in
                writer.key("product_ids")
                writer.array { writer in for id in ids { writer.string(id) } }
            }
        case .purchase(let product):
            return .askHost(.storePurchase) { writer in
                writer.key("product")
                product.write(to: &writer)
            }
        case .restore:
            return .askHost(.storeRestore) { _ in }
        case .finishTransaction(let transaction, let consume):
            return .askHost(.storeFinishTransaction) { writer in
                writer.member("transaction_id", transaction.transactionId)
                writer.member("vendor_product_id", transaction.vendorProductId)
                writer.member("consume", consume)
            }
        case .refreshEligibility(let ids):
            return .askHost(.storeRefreshEligibility) { writer in
                writer.key("product_ids")
                writer.array { writer in for id in ids { writer.string(id) } }
            }
        }
    }

    func delayedOutcome(of operation: StoreOperation) -> StoreOutcome {
        outcome(of: operation, answer: .timedOut(WireError(.internal, "the host store plays no delays")))
    }

    /// Reads `result.products` (store shape), `result.type` (success with optional
    /// `expires_at`, user_cancelled, pending) or `result.product_ids`, by operation.
    func outcome(of operation: StoreOperation, answer: HostOutcome) -> StoreOutcome {
        switch operation {
        case .fetchProducts:
            if let error = answer.error(.productsLoadingFailed, "the store could not load the products") { return .products(.failure(error)) }
            do throws(WireError) {
                var products: [StoreProduct] = []
                for product in try answer.answer?.result?.objects("products") ?? [] { products.append(try StoreProduct.load(product)) }
                return .products(.success(products))
            } catch {
                return .products(.failure(error))
            }
        case .purchase:
            if let error = answer.error(.purchaseFailed, "the store could not complete the purchase") { return .purchase(.failed(error)) }
            guard case .purchase(let bought) = operation else { return .purchase(.failed(WireError(.internal, "not a purchase"))) }
            return .purchase(PurchaseOutcome(hostResult: answer.answer?.result, productId: bought.productId, now: now()))
        case .restore:
            if let error = answer.error(.restoreFailed, "the store could not restore purchases") { return .restore(.failed(error)) }
            return .restore(RestoreOutcome(hostResult: answer.answer?.result, now: now()))
        case .finishTransaction:
            return .done(answer.error(.purchaseFailed, "the store could not finish the transaction"))
        case .refreshEligibility:
            // Anything but a clear answer keeps `unknown`: never turned into `eligible` silently.
            var settled: [String: OfferEligibility] = [:]
            if case .object(let map)? = answer.answer?.result?.object["eligibility"] {
                for member in map.members {
                    if case .string(let text) = member.value, let value = OfferEligibility(rawValue: text), value != .unknown {
                        settled[member.key] = value
                    }
                }
            }
            return .eligibility(settled)
        }
    }
}

extension PurchaseOutcome {
    /// The host's account of a purchase (`store.purchase`, or `observer.purchase` when the app
    /// completes purchases itself): `result.type` success (with `transaction` and optionally
    /// `expires_at`), user_cancelled, or pending (optionally with `transaction`).
    init(hostResult result: Fields?, productId: String, now: Int) {
        guard let result, case .string(let type)? = result.object["type"] else {
            self = .failed(WireError(.purchaseFailed, "the host's purchase answer has no result.type"))
            return
        }
        do throws(WireError) {
            let transaction = try result.optionalObject("transaction").map { (fields: Fields) throws(WireError) in
                try StoreTransaction(fields, productId: productId, now: now)
            }
            switch type {
            case "success":
                var expiresAt = transaction?.expiresAt
                if let text = try result.optionalString("expires_at") { expiresAt = ISODate.parse(text) ?? expiresAt }
                self = .succeeded(transaction: transaction, expiresAt: expiresAt)
            case "user_cancelled": self = .cancelled
            case "pending": self = .pending(transaction)
            default: self = .failed(WireError(.purchaseFailed, "'\(type)' is not a purchase result (success, user_cancelled, pending)"))
            }
        } catch {
            self = .failed(WireError(.purchaseFailed, "the host's purchase answer is malformed: \(error.message)", details: error.details))
        }
    }
}

extension RestoreOutcome {
    /// The host's account of a restore: `result.product_ids` and/or `result.transactions`.
    init(hostResult result: Fields?, now: Int) {
        var ids: [String] = []
        if case .array(let list)? = result?.object["product_ids"] {
            ids = list.compactMap { if case .string(let id) = $0 { return id } else { return nil } }
        }
        var transactions: [StoreTransaction] = []
        if let result, result.optional("transactions") != nil {
            do throws(WireError) {
                for fields in try result.objects("transactions") { transactions.append(try StoreTransaction(fields, productId: nil, now: now)) }
            } catch {
                self = .failed(WireError(.restoreFailed, "the host's restore answer is malformed: \(error.message)", details: error.details))
                return
            }
        }
        for transaction in transactions where !ids.contains(transaction.vendorProductId) { ids.append(transaction.vendorProductId) }
        self = .restored(productIds: ids, transactions: transactions)
    }
}
