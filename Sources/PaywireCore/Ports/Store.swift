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
}

/// Who asked the store, so the outcome finds its way back.
enum StoreTicket: Equatable, Sendable {
    /// `PaywallViews`: a view's products load, purchase or restore.
    case paywallView(viewId: String)
    /// `ProductsLoader`: a `get_paywall_products` call.
    case productsCall(callToken: UInt64)
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
}

enum PurchaseOutcome: Equatable, Sendable {
    /// Bought; the store may say until when (else one period from now).
    case succeeded(expiresAt: Int?)
    case cancelled
    case pending
    case failed(WireError)
}

enum RestoreOutcome: Equatable, Sendable {
    /// The products the store says the user owns.
    case restored([String])
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
        }
    }
}

/// `store: {"type": "host"}`: the host's store (StoreKit, Play Billing, ...), asked through
/// `host_request` events: `store.fetch_products {product_ids}`, `store.purchase {product}`,
/// `store.restore {}`.
final class HostStore: StoreAdapter {
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
            return .purchase(PurchaseOutcome(hostResult: answer.answer?.result))
        case .restore:
            if let error = answer.error(.restoreFailed, "the store could not restore purchases") { return .restore(.failed(error)) }
            guard case .array(let ids)? = answer.answer?.result?.object["product_ids"] else { return .restore(.restored([])) }
            return .restore(.restored(ids.compactMap { if case .string(let id) = $0 { return id } else { return nil } }))
        }
    }
}

extension PurchaseOutcome {
    /// The host's account of a purchase (`store.purchase`, or `observer.purchase` when the app
    /// completes purchases itself): `result.type` success (with optional `expires_at`),
    /// user_cancelled or pending.
    init(hostResult result: Fields?) {
        guard let result, case .string(let type)? = result.object["type"] else {
            self = .failed(WireError(.purchaseFailed, "the host's purchase answer has no result.type"))
            return
        }
        switch type {
        case "success":
            var expiresAt: Int?
            if case .string(let text)? = result.object["expires_at"] { expiresAt = ISODate.parse(text) }
            self = .succeeded(expiresAt: expiresAt)
        case "user_cancelled": self = .cancelled
        case "pending": self = .pending
        default: self = .failed(WireError(.purchaseFailed, "'\(type)' is not a purchase result (success, user_cancelled, pending)"))
        }
    }
}
