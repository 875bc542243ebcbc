import PaywireWire

/// What a product gives offline, as the last placement that named it said: its access level,
/// and its type when the placement named one. A value.
package struct ProductAccess: Equatable, Sendable {
    package let accessLevelId: String
    package let productType: ProductType?

    package init(accessLevelId: String, productType: ProductType?) {
        self.accessLevelId = accessLevelId
        self.productType = productType
    }
}

/// Access while the backend does not answer, bounded. Pure: no I/O, no clock of its own.
/// - The backend's grants give access for a maximum age after its last answer about the
///   profile (on the access clock); past it they give none until it answers again
///   (`Profile.givesAccess`, `trusts`).
/// - The store's current entitlements may add grants, `source: offline` and never verified,
///   each only as the product-to-access-level map says: a product the map does not name grants
///   nothing (`decide`). They replace only a grant that gives no access now (`replace`), are
///   never kept on disk, and vanish when the backend answers (`RemoteProfile.apply` keeps only
///   the device's pending grants; `removed`).
package enum OfflineAccessRules {
    /// `offline_access_max_age_ms` by default: 30 days.
    package static let defaultMaxAge = 30 * Milliseconds.day

    /// Whether the backend's silence still lets `grant` give access at `now`: a backend grant
    /// while `now` is before `trustedUntil` (nil: no bound); any other grant always (its own
    /// times decide).
    package static func trusts(_ grant: Profile.Grant, until trustedUntil: WideInt?, now: WideInt) -> Bool {
        guard grant.source == .backend, let trustedUntil else { return true }
        return now < trustedUntil
    }

    /// What the store's current entitlements give offline, by `map` only: each product's
    /// access level and type from the map (its type, when the map names none, from the store's
    /// product or the transaction's expiry, as a purchase's would be; never the host's word on
    /// either), decided by `AccessRules` and marked `offline`, unverified. Purchases are not
    /// listed (`non_subscriptions` are the backend's and the device's own). `unmapped`: the
    /// products the map does not name, which grant nothing.
    package static func decide(_ transactions: [StoreTransaction], map: [String: ProductAccess],
                               describe: (String) -> StoreProduct?) -> (decisions: [AccessDecision], unmapped: [String]) {
        var decisions: [AccessDecision] = []
        var unmapped: [String] = []
        for transaction in transactions {
            let productId = transaction.vendorProductId
            guard let access = map[productId] else {
                if !unmapped.contains(productId) { unmapped.append(productId) }
                continue
            }
            var named = ProductReference(vendorProductId: productId)
            named.accessLevelId = access.accessLevelId
            named.productType = access.productType
            var storeWord = transaction
            storeWord.productType = nil
            storeWord.accessLevelId = nil
            let facts = PurchaseFacts.resolve(productId: productId, named: named, transaction: storeWord, product: describe(productId),
                                              purchasedAt: transaction.purchasedAt, storeExpiresAt: transaction.expiresAt)
            var decision = AccessRules.decide(facts)
            decision.accessLevel?.grant.source = .offline
            decision.accessLevel?.grant.verification = .store
            decision.subscription?.grant.source = .offline
            decision.subscription?.grant.verification = .store
            decision.nonSubscription = nil
            decision.consumes = false
            guard decision.accessLevel != nil || decision.subscription != nil else { continue }
            decisions.append(decision)
        }
        return (decisions, unmapped)
    }

    /// `profile` with its offline grants replaced by `decisions`'. An offline grant takes an
    /// access level or a subscription only where none stands or the one there gives no access
    /// at `now` (expired, refunded, or the backend's past its trust): it never stands in for a
    /// grant that gives access.
    package static func replace(in profile: Profile, with decisions: [AccessDecision], now: WideInt) -> Profile {
        var next = removed(from: profile)
        for decision in decisions {
            if let (id, grant) = decision.accessLevel { take(grant, as: id, in: &next.accessLevels, profile: next, now: now) }
            if let (id, grant) = decision.subscription { take(grant, as: id, in: &next.subscriptions, profile: next, now: now) }
        }
        return next
    }

    /// `profile` without its offline grants (the backend answered).
    package static func removed(from profile: Profile) -> Profile {
        var next = profile
        next.accessLevels.removeAll { $0.grant.source == .offline }
        next.subscriptions.removeAll { $0.grant.source == .offline }
        return next
    }

    private static func take(_ grant: Profile.Grant, as id: String, in list: inout [(id: String, grant: Profile.Grant)],
                             profile: Profile, now: WideInt) {
        guard let index = list.firstIndex(where: { $0.id == id }) else {
            list.append((id, grant))
            return
        }
        let standing = list[index].grant
        if standing.source == .offline {
            // Two entitlements of one access level: the one that ends later stands.
            if grant.outranks(standing) { list[index].grant = grant }
        } else if !profile.givesAccess(standing, now: now) {
            list[index].grant = grant
        }
    }
}
