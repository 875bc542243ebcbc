import PaywireWire

/// What the device knows of one purchase when it grants access on its own word: the product's
/// type and access level as resolved from the paywall, the transaction and the store, and the
/// store's transaction.
package struct PurchaseFacts: Equatable, Sendable {
    package let productId: String
    package let productType: ProductType
    /// Nil: the product names none, so it grants none.
    package let accessLevelId: String?
    package let purchasedAt: WideInt
    /// The store's own expiry, when it gives one.
    package var storeExpiresAt: WideInt?
    /// One period (or the bought duration) after the purchase, when the product has one.
    package var periodEnd: WideInt?
    package var transactionId: String?
    package var originalTransactionId: String?
    package var store: String?
    package var isSandbox = false

    /// The facts of a purchase: the type and access level named by the paywall first, then by
    /// the host's transaction, then by the store's description; a type nobody named is inferred
    /// from the period (or the store's expiry when the product is not described).
    package static func resolve(productId: String, named: ProductReference?, transaction: StoreTransaction?, product: StoreProduct?,
                        purchasedAt: WideInt, storeExpiresAt: WideInt?) -> PurchaseFacts {
        let type = named?.productType ?? transaction?.productType ?? product?.productType
            ?? ProductType.inferred(hasPeriod: storeExpiresAt != nil, autoRenews: true)
        var facts = PurchaseFacts(productId: productId, productType: type,
                                  accessLevelId: named?.accessLevelId ?? transaction?.accessLevelId ?? product?.accessLevel,
                                  purchasedAt: purchasedAt)
        facts.storeExpiresAt = storeExpiresAt
        facts.periodEnd = type.hasPeriod ? product?.expiry(from: purchasedAt) : nil
        facts.transactionId = transaction?.transactionId
        facts.originalTransactionId = transaction?.originalTransactionId
        facts.store = transaction?.store.rawValue
        facts.isSandbox = transaction?.environment == .sandbox
        return facts
    }
}

/// The device's grant for one purchase, before the backend's word.
package struct AccessDecision: Equatable, Sendable {
    package var accessLevel: (id: String, grant: Profile.Grant)?
    package var subscription: (id: String, grant: Profile.Grant)?
    package var nonSubscription: Profile.NonSubscription?
    /// Why the purchase grants less than one might expect, for a `warn` log event.
    package var note: String?
    /// Whether finishing the transaction consumes it (a consumable, once the backend has it).
    package var consumes = false

    package static func == (lhs: AccessDecision, rhs: AccessDecision) -> Bool {
        lhs.accessLevel?.id == rhs.accessLevel?.id && lhs.accessLevel?.grant == rhs.accessLevel?.grant
            && lhs.subscription?.id == rhs.subscription?.id && lhs.subscription?.grant == rhs.subscription?.grant
            && lhs.nonSubscription == rhs.nonSubscription && lhs.note == rhs.note && lhs.consumes == rhs.consumes
    }
}

/// The one grant function: what a purchase gives on the device's word, by product type.
/// - consumable: no access level; recorded in `non_subscriptions`; consumed when finished.
/// - non_consumable: its access level for life; recorded in `non_subscriptions`.
/// - autorenewable: its access level until the store's expiry (else one period), renewing.
/// - non_renewing: its access level for the bought duration, not renewing.
/// There is no default access level: a product that names none grants none, and says so.
/// The backend's answer later replaces all of it (`RemoteProfile.apply`).
package enum AccessRules {
    package static func decide(_ facts: PurchaseFacts) -> AccessDecision {
        var decision = AccessDecision()
        switch facts.productType {
        case .consumable:
            decision.consumes = true
            decision.nonSubscription = nonSubscription(facts, consumable: true)
            if let id = facts.accessLevelId {
                decision.note = "'\(facts.productId)' is a consumable: it grants no access level ('\(id)' is ignored)"
            }
            return decision
        case .non_consumable:
            decision.nonSubscription = nonSubscription(facts, consumable: false)
            var grant = baseGrant(facts, expiresAt: nil)
            grant.isLifetime = true
            decision.accessLevel = facts.accessLevelId.map { ($0, grant) }
        case .autorenewable, .non_renewing:
            let expiresAt = facts.storeExpiresAt ?? facts.periodEnd
            var grant = baseGrant(facts, expiresAt: expiresAt)
            grant.willRenew = facts.productType == .autorenewable
            decision.subscription = (facts.productId, grant)
            decision.accessLevel = facts.accessLevelId.map { ($0, grant) }
            if expiresAt == nil {
                decision.note = "'\(facts.productId)' is a subscription with no known expiry: its access stands until the backend answers"
            }
        }
        if facts.accessLevelId == nil {
            decision.note = "'\(facts.productId)' names no access level: the purchase grants none (there is no default)"
        }
        return decision
    }

    private static func baseGrant(_ facts: PurchaseFacts, expiresAt: WideInt?) -> Profile.Grant {
        var grant = Profile.Grant(vendorProductId: facts.productId, activatedAt: facts.purchasedAt, expiresAt: expiresAt)
        grant.transactionId = facts.transactionId
        grant.originalTransactionId = facts.originalTransactionId
        grant.store = facts.store
        grant.isSandbox = facts.isSandbox
        grant.source = .device
        grant.verification = .store
        return grant
    }

    private static func nonSubscription(_ facts: PurchaseFacts, consumable: Bool) -> Profile.NonSubscription? {
        // Without a transaction there is no purchase id to list it (and to deduplicate) by.
        guard let id = facts.transactionId else { return nil }
        var purchase = Profile.NonSubscription(purchaseId: id, vendorProductId: facts.productId, purchasedAt: facts.purchasedAt,
                                               isConsumable: consumable)
        purchase.isSandbox = facts.isSandbox
        purchase.store = facts.store
        return purchase
    }
}
