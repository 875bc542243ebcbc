import Foundation

/// The app's store (StoreKit 2 in an app) as the core asks for it: when the configuration's
/// `store.type` is `host`, each `store.*` host request is answered through these methods, and
/// `observer.purchase` (observer mode) through ``purchase(_:)``.
///
/// The methods are called on no particular actor, one task per request, and must answer before
/// the request's deadline (`host_request_timeout_ms`, 30 s by default): a later answer is
/// refused and the flow has already failed with `timeout`. A thrown ``PaywireError`` travels
/// with its code; any other error as `purchase_failed` / `restore_failed` /
/// `products_loading_failed` with its description.
public protocol PaywireStore: Sendable {
    /// The store's description of these products (`store.fetch_products`); a product the store
    /// does not know is left out.
    func products(withIds productIds: [String]) async throws -> [StoreProduct]

    /// Buys a product (`store.purchase`), or reports one the app bought itself (`observer.purchase`).
    func purchase(_ request: StorePurchaseRequest) async throws -> StorePurchase

    /// Restores earlier purchases (`store.restore`).
    func restorePurchases() async throws -> StoreRestore

    /// The backend has the transaction: the store may stop delivering it (`store.finish_transaction`);
    /// `consume` uses a consumable up.
    func finish(transactionId: String, vendorProductId: String, consume: Bool) async throws

    /// Settles intro-offer eligibility (receipt validation) for these products
    /// (`store.refresh_eligibility`). The default settles none: each stays `unknown`.
    func refreshEligibility(productIds: [String]) async throws -> [String: IntroOfferEligibility]

    /// What the user owns now (`store.current_entitlements`; StoreKit 2's
    /// `Transaction.currentEntitlements`), each transaction naming its product: while the
    /// backend does not answer, the core grants access by them, as far as the products the
    /// placements named say, unverified. The default throws: access then stays as it was.
    func currentEntitlements() async throws -> [StoreTransaction]
}

extension PaywireStore {
    public func refreshEligibility(productIds: [String]) async throws -> [String: IntroOfferEligibility] { [:] }

    public func currentEntitlements() async throws -> [StoreTransaction] {
        throw PaywireError(code: .billingUnavailable, message: "this store does not list what the user owns now (currentEntitlements)")
    }
}

/// What the core asks the store to buy.
public struct StorePurchaseRequest: Sendable, Hashable {
    /// The product's id in the store.
    public var vendorProductId: String
    /// The product as the paywall shows it (only `vendorProductId` and the paywall's context
    /// when the store has not described it).
    public var product: EventProduct
    /// The signed promotional or win-back offer to apply, when the purchase names one.
    public var offer: JSONObject?
    /// True for `observer.purchase`: the app bought it itself and reports what happened.
    public var isObserved: Bool

    public init(vendorProductId: String, product: EventProduct, offer: JSONObject? = nil, isObserved: Bool = false) {
        self.vendorProductId = vendorProductId
        self.product = product
        self.offer = offer
        self.isObserved = isObserved
    }
}

/// What a purchase came to in the store.
public enum StorePurchase: Sendable, Hashable {
    /// Bought; `expiresAt` (ISO 8601) when the store says when access ends.
    case success(transaction: StoreTransaction, expiresAt: String? = nil)
    /// The user cancelled.
    case userCancelled
    /// Waiting (Ask to Buy, a payment to confirm); the transaction when there is one already.
    case pending(transaction: StoreTransaction? = nil)

    var result: JSONObject {
        switch self {
        case .success(let transaction, let expiresAt):
            var result: JSONObject = ["type": "success", "transaction": transaction.jsonValue]
            if let expiresAt { result["expires_at"] = .string(expiresAt) }
            return result
        case .userCancelled:
            return ["type": "user_cancelled"]
        case .pending(let transaction):
            var result: JSONObject = ["type": "pending"]
            if let transaction { result["transaction"] = transaction.jsonValue }
            return result
        }
    }
}

/// What a restore found.
public struct StoreRestore: Sendable, Hashable {
    /// The ids of the products restored.
    public var productIds: [String]
    /// Their transactions, when the store has them (the access they grant is dated by them).
    public var transactions: [StoreTransaction]

    public init(productIds: [String] = [], transactions: [StoreTransaction] = []) {
        self.productIds = productIds
        self.transactions = transactions
    }

    var result: JSONObject {
        ["product_ids": productIds.jsonValue, "transactions": transactions.jsonValue]
    }
}
