import PaywireModel

/// The backend's profile: grants from the verified transactions a profile owns, merged with a
/// profile authored in development (`--profiles`, `PUT /_dev/profiles/{id}`). For each access
/// level and each subscription product the grant the model's rule ranks first stands
/// (`Profile.merge`, `GrantStanding.outranks`). Pure: facts in, profile out.
package enum ProfileBuilder {
    /// The profile, or nil when the backend has met the profile neither through a purchase or
    /// restore nor through an authored profile.
    package static func profile(_ facts: ProfileFacts, authored: BackendProfile?, products: [String: StoreProduct] = [:]) -> BackendProfile? {
        guard facts.known || authored != nil else { return nil }
        var profile = authored ?? BackendProfile()
        if profile.customerUserId == nil { profile.customerUserId = facts.customerUserId }
        for owned in facts.grants + changedTo(facts, products: products) {
            // What store notifications said of this subscription, when any came.
            let lifecycle = facts.lifecycles[owned.originalTransactionId]
            if lifecycle != nil { profile.reported.insert(owned.originalTransactionId) }
            let grant = grant(owned, lifecycle)
            switch owned.productType {
            case .consumable, .non_consumable:
                Profile.record(purchase(owned, refunded: lifecycle?.isRefund ?? false), into: &profile.grants.nonSubscriptions)
            case .autorenewable, .non_renewing:
                Profile.merge(grant, as: owned.vendorProductId, into: &profile.grants.subscriptions)
            }
            if let level = owned.accessLevel, owned.productType != .consumable {
                Profile.merge(grant, as: level, into: &profile.grants.accessLevels)
            }
            profile.grants.isTestUser = profile.grants.isTestUser || owned.isTest
        }
        return profile
    }

    /// The grants of products a plan change put in effect, which no transaction the device
    /// posted names: one per subscription whose lifecycle's product no owned transaction has,
    /// from the catalog's description of that product (its access level, its type).
    package static func changedTo(_ facts: ProfileFacts, products: [String: StoreProduct]) -> [OwnedGrant] {
        var made: [OwnedGrant] = []
        for (original, lifecycle) in facts.lifecycles.sorted(by: { $0.key < $1.key }) where lifecycle.productChangedAt != nil {
            let owned = facts.grants.filter { $0.originalTransactionId == original }
            guard let first = owned.first, !owned.contains(where: { $0.vendorProductId == lifecycle.vendorProductId }) else { continue }
            let product = products[lifecycle.vendorProductId]
            made.append(OwnedGrant(transactionId: lifecycle.transactionId, originalTransactionId: original, vendorProductId: lifecycle.vendorProductId,
                                   purchasedAt: lifecycle.productChangedAt ?? first.purchasedAt, expiresAt: lifecycle.expiresAt,
                                   accessLevel: product?.accessLevel ?? first.accessLevel, productType: product?.productType ?? first.productType,
                                   store: first.store, environment: first.environment, ownershipType: first.ownershipType))
        }
        return made
    }

    /// The grant of a transaction. Without store notifications it has the lifecycle the backend
    /// knows from the purchase alone: a subscription renews until its expiry, a non-consumable
    /// lasts for life. With them, every lifecycle member says what the store last reported.
    package static func grant(_ owned: OwnedGrant, _ lifecycle: LifecycleState?) -> Grant {
        if let lifecycle, lifecycle.vendorProductId != owned.vendorProductId { return replaced(owned, lifecycle) }
        var grant = Grant(vendorProductId: owned.vendorProductId, activatedAt: owned.purchasedAt,
                          expiresAt: lifecycle.map { $0.expiresAt } ?? owned.expiresAt)
        grant.verified = true
        grant.transactionId = lifecycle?.transactionId ?? owned.transactionId
        grant.originalTransactionId = owned.originalTransactionId
        grant.store = owned.store.rawValue
        grant.isSandbox = owned.isSandbox
        grant.isLifetime = owned.productType == .non_consumable
        grant.willRenew = lifecycle?.willRenew ?? (owned.productType == .autorenewable)
        grant.ownershipType = owned.ownershipType.flatMap(OwnershipType.init(rawValue:))
        // Promotional and win-back offers are named by the developer's offer id.
        if owned.offerType == "promotional" || owned.offerType == "win_back" { grant.activePromotionalOfferId = owned.offerId }
        // An introductory offer covers the period of the transaction it was bought with; a
        // renewal is a new transaction at full price.
        if owned.offerType == "introductory", (lifecycle?.transactionId ?? owned.transactionId) == owned.transactionId {
            grant.setActiveIntroductoryOffer(paymentMode: owned.offerPaymentMode)
        }
        guard let lifecycle else { return grant }
        grant.renewedAt = lifecycle.renewedAt
        grant.isInGracePeriod = lifecycle.isInGracePeriod
        grant.gracePeriodExpiresAt = lifecycle.gracePeriodExpiresAt
        grant.billingIssueDetectedAt = lifecycle.billingIssueDetectedAt
        grant.unsubscribedAt = lifecycle.unsubscribedAt
        grant.cancellationReason = lifecycle.cancellationReason
        grant.isRefund = lifecycle.isRefund
        grant.refundedAt = lifecycle.refundedAt
        grant.willRenewVendorProductId = lifecycle.willRenewProductId
        return grant
    }

    /// The grant of a product a plan change replaced: it ended when the change took effect (at
    /// once for an upgrade, which `cancellation_reason: upgraded` says; at its renewal for a
    /// downgrade or crossgrade) and renews no more.
    package static func replaced(_ owned: OwnedGrant, _ lifecycle: LifecycleState) -> Grant {
        var grant = Grant(vendorProductId: owned.vendorProductId, activatedAt: owned.purchasedAt,
                          expiresAt: lifecycle.productChangedAt ?? owned.expiresAt)
        grant.verified = true
        grant.transactionId = owned.transactionId
        grant.originalTransactionId = owned.originalTransactionId
        grant.store = owned.store.rawValue
        grant.isSandbox = owned.isSandbox
        grant.ownershipType = owned.ownershipType.flatMap(OwnershipType.init(rawValue:))
        grant.cancellationReason = lifecycle.replacedByUpgrade && lifecycle.replacedProductId == owned.vendorProductId ? .upgraded : nil
        return grant
    }

    /// A consumable's or non-consumable's entry in `non_subscriptions`.
    package static func purchase(_ owned: OwnedGrant, refunded: Bool) -> Purchase {
        var purchase = Purchase(purchaseId: owned.transactionId, vendorProductId: owned.vendorProductId,
                                purchasedAt: owned.purchasedAt, isConsumable: owned.productType == .consumable)
        purchase.verified = true
        purchase.isRefund = refunded
        purchase.isSandbox = owned.isSandbox
        purchase.store = owned.store.rawValue
        return purchase
    }
}
