import Foundation
import PaywireModel

/// The backend's profile (`Profile` of the spec): grants from the verified transactions a
/// profile owns, merged with a profile authored in development (`--profiles`, `PUT
/// /_dev/profiles/{id}`). For each access level and each subscription product the grant the
/// model's rule ranks first wins (`GrantStanding.outranks`). Pure: facts in, profile out.
enum ProfileBuilder {
    /// The profile, or nil when the backend has met the profile neither through a purchase or
    /// restore nor through an authored profile.
    static func profile(_ facts: ProfileFacts, authored: Profile?, now: Int) -> Profile? {
        guard facts.known || authored != nil else { return nil }
        var accessLevels = RankedGrants(authored?.accessLevels?.additionalProperties)
        var subscriptions = RankedGrants(authored?.subscriptions?.additionalProperties)
        var purchases = authored?.nonSubscriptions?.additionalProperties ?? [:]
        var testUser = authored?.isTestUser ?? false
        for owned in facts.grants {
            // What store notifications said of this subscription, when any came.
            let lifecycle = facts.lifecycles[owned.originalTransactionId]
            let grant = grant(owned, lifecycle, now: now)
            let standing = lifecycle?.standing ?? GrantStanding(expiresAt: owned.expiresAt)
            switch owned.productType {
            case "consumable", "non_consumable":
                purchases[owned.vendorProductId, default: []].append(purchase(owned, refunded: lifecycle?.isRefund ?? false))
            default:
                subscriptions.offer(owned.vendorProductId, grant, standing: standing)
            }
            if let level = owned.accessLevel, owned.productType != "consumable" {
                accessLevels.offer(level, grant, standing: standing)
            }
            testUser = testUser || owned.isTest
        }
        var profile = authored ?? Profile()
        if profile.customerUserId == nil { profile.customerUserId = facts.customerUserId }
        profile.accessLevels = .init(additionalProperties: accessLevels.grants)
        profile.subscriptions = .init(additionalProperties: subscriptions.grants)
        profile.nonSubscriptions = .init(additionalProperties: purchases)
        if profile.customAttributes == nil { profile.customAttributes = .init(additionalProperties: [:]) }
        profile.isTestUser = testUser
        return profile
    }

    /// The grant of a transaction. Without store notifications it has the lifecycle the backend
    /// knows from the purchase alone: a subscription renews until its expiry, a non-consumable
    /// lasts for life. With them, every lifecycle member says what the store last reported.
    static func grant(_ owned: OwnedGrant, _ lifecycle: LifecycleState?, now: Int) -> Grant {
        let date = { (time: Int?) in time.map { Date(milliseconds: $0) } }
        var grant = Grant(
            vendorProductId: owned.vendorProductId, activatedAt: Date(milliseconds: owned.purchasedAt),
            expiresAt: date(lifecycle.map { $0.expiresAt } ?? owned.expiresAt),
            transactionId: lifecycle?.transactionId ?? owned.transactionId, originalTransactionId: owned.originalTransactionId,
            store: owned.store, isSandbox: owned.isSandbox, isLifetime: owned.productType == "non_consumable",
            willRenew: lifecycle?.willRenew ?? (owned.productType == "autorenewable"))
        guard let lifecycle else { return grant }
        grant.isActive = lifecycle.isActive(now: now)
        grant.renewedAt = date(lifecycle.renewedAt)
        grant.isInGracePeriod = lifecycle.isInGracePeriod
        grant.gracePeriodExpiresAt = date(lifecycle.gracePeriodExpiresAt)
        grant.billingIssueDetectedAt = date(lifecycle.billingIssueDetectedAt)
        grant.unsubscribedAt = date(lifecycle.unsubscribedAt)
        grant.cancellationReason = lifecycle.cancellationReason.flatMap { Grant.CancellationReasonPayload(rawValue: $0) }
        grant.isRefund = lifecycle.isRefund
        grant.refundedAt = date(lifecycle.refundedAt)
        return grant
    }

    /// A consumable's or non-consumable's entry in `non_subscriptions`.
    static func purchase(_ owned: OwnedGrant, refunded: Bool) -> NonSubscription {
        NonSubscription(purchaseId: owned.transactionId, vendorProductId: owned.vendorProductId,
                        purchasedAt: Date(milliseconds: owned.purchasedAt), isConsumable: owned.productType == "consumable",
                        isRefund: refunded, isSandbox: owned.isSandbox, store: owned.store)
    }
}

/// Grants by key, keeping the one the model's rule ranks first (`GrantStanding.outranks`): a
/// grant not refunded over a refunded one, then the one whose access ends later.
struct RankedGrants {
    private(set) var grants: [String: Grant] = [:]
    private var standings: [String: GrantStanding] = [:]

    /// Starts from an authored profile's grants.
    init(_ authored: [String: Grant]?) {
        for (key, grant) in authored ?? [:] {
            grants[key] = grant
            standings[key] = GrantStanding(
                startsAt: grant.startsAt?.milliseconds, expiresAt: grant.expiresAt?.milliseconds, isRefund: grant.isRefund ?? false,
                isInGracePeriod: grant.isInGracePeriod ?? false, gracePeriodExpiresAt: grant.gracePeriodExpiresAt?.milliseconds)
        }
    }

    mutating func offer(_ key: String, _ grant: Grant, standing: GrantStanding) {
        if let current = standings[key], !standing.outranks(current) { return }
        grants[key] = grant
        standings[key] = standing
    }
}
