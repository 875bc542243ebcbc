import PaywireModel
import PaywireWire

/// `store: {"type": "none"}`: no billing provider; every operation fails at once.
final class NoStore: StoreAdapter {
    var unavailable: WireError? { WireError(.billingUnavailable, "no billing provider is configured (store.type is none)") }
    var describesProductsOnlyAfterFetch: Bool { false }
    var fixedNow: WideInt? { nil }
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
        case .currentEntitlements: return .entitlements(.failure(error))
        }
    }
}

/// `store: {"type": "host"}`: the host's store (StoreKit, Play Billing, ...), asked through
/// `host_request` events: `store.fetch_products {product_ids}`, `store.purchase {product, offer?, subscription_update?}`,
/// `store.restore {}`, `store.current_entitlements {}`, ...
final class HostStore: StoreAdapter {
    /// The clock transactions without a purchase time are dated by.
    private let now: () -> WideInt

    init(now: @escaping () -> WideInt) { self.now = now }

    var unavailable: WireError? { nil }
    var describesProductsOnlyAfterFetch: Bool { true }
    var fixedNow: WideInt? { nil }
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
                if let offer = product.offer {
                    writer.key("offer")
                    offer.write(to: &writer)
                }
                if let update = product.subscriptionUpdate {
                    writer.key("subscription_update")
                    update.write(to: &writer)
                }
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
        case .currentEntitlements:
            return .askHost(.storeCurrentEntitlements) { _ in }
        }
    }

    func delayedOutcome(of operation: StoreOperation) -> StoreOutcome {
        outcome(of: operation, answer: .timedOut(WireError(.internal, "the host store plays no delays")))
    }

    /// Reads `result.products` (store shape), `result.type` (success with optional
    /// `expires_at`, user_cancelled, pending), `result.product_ids` or `result.transactions`, by operation.
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
        case .currentEntitlements:
            if let error = answer.error(.restoreFailed, "the store could not say what the user owns") { return .entitlements(.failure(error)) }
            return .entitlements(StoreTransaction.entitlements(answer.answer?.result, now: now()))
        }
    }
}

extension StoreTransaction {
    /// The host's account of the store's current entitlements: `result.transactions`, each a
    /// transaction naming its `vendor_product_id`. A malformed one fails the whole answer
    /// (`decoding_failed`): a half-read list would take away what the rest gives.
    static func entitlements(_ result: Fields?, now: WideInt) -> Result<[StoreTransaction], WireError> {
        guard let result else { return .failure(WireError(.decodingFailed, "the host's current_entitlements answer has no result")) }
        do throws(WireError) {
            var transactions: [StoreTransaction] = []
            for fields in try result.objects("transactions") { transactions.append(try StoreTransaction(fields, productId: nil, now: now)) }
            return .success(transactions)
        } catch {
            return .failure(WireError(.decodingFailed, "the host's current_entitlements answer is malformed: \(error.message)", details: error.details))
        }
    }
}

extension PurchaseOutcome {
    /// The host's account of a purchase (`store.purchase`, or `observer.purchase` when the app
    /// completes purchases itself): `result.type` success (with `transaction` and optionally
    /// `expires_at`), user_cancelled, or pending (optionally with `transaction`).
    init(hostResult result: Fields?, productId: String, now: WideInt) {
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
    init(hostResult result: Fields?, now: WideInt) {
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
