import Testing
@testable import PaywireModel
@testable import PaywireWire

/// The grant decision on its own: product type x what the store said x what the backend said.
@Suite struct AccessRulesTests {
    static let day = 86_400_000

    func facts(_ type: ProductType, level: String? = "premium", storeExpiry: Int? = nil, periodEnd: Int? = nil,
               transaction: String? = "t-1") -> PurchaseFacts {
        var facts = PurchaseFacts(productId: "p", productType: type, accessLevelId: level, purchasedAt: 1000)
        facts.storeExpiresAt = storeExpiry
        facts.periodEnd = periodEnd
        facts.transactionId = transaction
        facts.store = "test"
        facts.isSandbox = true
        return facts
    }

    @Test func aConsumableGrantsNoAccessLevelIsListedAndIsConsumed() {
        let decision = AccessRules.decide(facts(.consumable, level: nil))
        #expect(decision.accessLevel == nil && decision.subscription == nil)
        #expect(decision.nonSubscription?.isConsumable == true)
        #expect(decision.nonSubscription?.purchaseId == "t-1")
        #expect(decision.consumes)
        #expect(decision.note == nil)
    }

    @Test func aConsumableNamingAnAccessLevelStillGrantsNoneAndSaysSo() {
        let decision = AccessRules.decide(facts(.consumable))
        #expect(decision.accessLevel == nil)
        #expect(decision.note?.contains("ignored") == true)
    }

    @Test func aNonConsumableGrantsItsAccessLevelForLife() {
        let decision = AccessRules.decide(facts(.non_consumable, periodEnd: 5000))
        #expect(decision.accessLevel?.id == "premium")
        #expect(decision.accessLevel?.grant.isLifetime == true)
        #expect(decision.accessLevel?.grant.expiresAt == nil)
        #expect(decision.subscription == nil)
        #expect(decision.nonSubscription?.isConsumable == false)
        #expect(!decision.consumes)
    }

    @Test func aProductNamingNoAccessLevelGrantsNoneWithANote() {
        for type in ProductType.allCases where type != .consumable {
            let decision = AccessRules.decide(facts(type, level: nil, storeExpiry: 9000))
            #expect(decision.accessLevel == nil)
            #expect(decision.note?.contains("names no access level") == true)
        }
    }

    @Test func anAutorenewableLastsUntilTheStoresExpiryOverItsPeriod() {
        let decision = AccessRules.decide(facts(.autorenewable, storeExpiry: 9000, periodEnd: 5000))
        #expect(decision.accessLevel?.grant.expiresAt == 9000)
        #expect(decision.accessLevel?.grant.willRenew == true)
        #expect(decision.subscription?.id == "p")
        #expect(decision.nonSubscription == nil)
    }

    @Test func anAutorenewableWithoutTheStoresExpiryLastsOnePeriod() {
        let decision = AccessRules.decide(facts(.autorenewable, periodEnd: 5000))
        #expect(decision.accessLevel?.grant.expiresAt == 5000)
    }

    @Test func aNonRenewingLastsItsDurationAndDoesNotRenew() {
        let decision = AccessRules.decide(facts(.non_renewing, periodEnd: 5000))
        #expect(decision.accessLevel?.grant.expiresAt == 5000)
        #expect(decision.accessLevel?.grant.willRenew == false)
        #expect(decision.subscription?.grant.isLifetime == false)
    }

    @Test func aSubscriptionWithNoKnownExpiryIsGrantedButFlagged() {
        let decision = AccessRules.decide(facts(.autorenewable))
        #expect(decision.accessLevel?.grant.expiresAt == nil)
        #expect(decision.accessLevel?.grant.isLifetime == false)
        #expect(decision.note != nil)
    }

    @Test func aPurchaseWithoutATransactionIsNotListed() {
        #expect(AccessRules.decide(facts(.consumable, transaction: nil)).nonSubscription == nil)
    }

    @Test func theGrantCarriesTheTransactionsStoreAndSandbox() {
        let grant = AccessRules.decide(facts(.autorenewable, periodEnd: 5000)).accessLevel?.grant
        #expect(grant?.store == "test" && grant?.isSandbox == true && grant?.transactionId == "t-1" && grant?.verified == false)
    }

    // MARK: - Which type and access level count

    @Test func thePaywallsTypeAndLevelWinOverTheTransactionsAndTheStores() {
        var named = ProductReference(vendorProductId: "p")
        named.productType = .consumable
        named.accessLevelId = "coins"
        var transaction = StoreTransaction(transactionId: "t", originalTransactionId: "t", vendorProductId: "p", purchasedAt: 0,
                                           environment: .sandbox, store: StoreName(rawValue: "host"), verification: "", expiresAt: nil)
        transaction.productType = .non_consumable
        transaction.accessLevelId = "vip"
        let facts = PurchaseFacts.resolve(productId: "p", named: named, transaction: transaction, product: nil, purchasedAt: 0,
                                          storeExpiresAt: nil)
        #expect(facts.productType == .consumable && facts.accessLevelId == "coins" && facts.isSandbox)
        let fromHost = PurchaseFacts.resolve(productId: "p", named: nil, transaction: transaction, product: nil, purchasedAt: 0,
                                             storeExpiresAt: nil)
        #expect(fromHost.productType == .non_consumable && fromHost.accessLevelId == "vip")
    }

    @Test func anUndescribedProductIsASubscriptionWhenTheStoreGaveAnExpiry() {
        #expect(PurchaseFacts.resolve(productId: "p", named: nil, transaction: nil, product: nil, purchasedAt: 0,
                                      storeExpiresAt: 10).productType == .autorenewable)
        let lifetime = PurchaseFacts.resolve(productId: "p", named: nil, transaction: nil, product: nil, purchasedAt: 0, storeExpiresAt: nil)
        #expect(lifetime.productType == .non_consumable && lifetime.accessLevelId == nil)
    }

    // MARK: - Activity over time

    @Test func aRefundedGrantIsInactiveWhateverItsExpiry() {
        var grant = Profile.Grant(vendorProductId: "p", activatedAt: 0, expiresAt: nil)
        grant.isRefund = true
        #expect(!grant.isActive(now: 1))
        #expect(grant.nextChange(after: 1) == nil)
    }

    @Test func aGracePeriodKeepsAccessPastTheExpiryUntilItEnds() {
        var grant = Profile.Grant(vendorProductId: "p", activatedAt: 0, expiresAt: 100)
        grant.isInGracePeriod = true
        grant.gracePeriodExpiresAt = 300
        #expect(grant.isActive(now: 200))
        #expect(!grant.isActive(now: 300))
        #expect(grant.nextChange(after: 150) == 300)
    }

    @Test func aFutureStartIsInactiveUntilItComes() {
        var grant = Profile.Grant(vendorProductId: "p", activatedAt: 0, expiresAt: 500)
        grant.startsAt = 100
        #expect(!grant.isActive(now: 50))
        #expect(grant.isActive(now: 100))
        #expect(grant.nextChange(after: 50) == 100)
    }

    // MARK: - The backend's answer

    @Test func theBackendsAnswerReplacesLocalGrantsExceptPendingOnes() {
        var device = Profile(profileId: "p", customerUserId: nil)
        let pendingDecision = AccessRules.decide(facts(.consumable, level: nil, transaction: "pending-1"))
        let answeredDecision = AccessRules.decide(facts(.non_consumable, transaction: "answered-1"))
        if let purchase = pendingDecision.nonSubscription { device.record(purchase) }
        if let purchase = answeredDecision.nonSubscription { device.record(purchase) }
        if let (id, grant) = answeredDecision.accessLevel { Profile.merge(grant, as: id, into: &device.accessLevels) }
        let applied = RemoteProfile.apply(RemoteProfile.Snapshot(), to: device, pending: ["pending-1"])
        #expect(applied.accessLevels.isEmpty)
        #expect(applied.nonSubscriptions.map(\.id) == ["p"])
        #expect(applied.nonSubscriptions.first?.purchases.map(\.purchaseId) == ["pending-1"])
    }

    @Test func theBackendsLifecycleMembersAreRead() throws {
        let body = #"{"profile":{"access_levels":{"premium":{"vendor_product_id":"m","activated_at":"2024-01-01T00:00:00.000Z","expires_at":"2024-02-01T00:00:00.000Z","will_renew":false,"is_in_grace_period":true,"grace_period_expires_at":"2024-02-08T00:00:00.000Z","cancellation_reason":"billing_error","store":"app_store"}},"non_subscriptions":{"coins":[{"purchase_id":"c-1","purchased_at":"2024-01-02T00:00:00.000Z","is_consumable":true}]}}}"#
        let snapshot = try RemoteProfile.parse(Array(body.utf8))
        let grant = try #require(snapshot.accessLevels.first?.grant)
        #expect(grant.verified && grant.isInGracePeriod && grant.cancellationReason == .billing_error && grant.store == "app_store")
        #expect(!grant.isLifetime)
        #expect(snapshot.nonSubscriptions.first?.purchases.first?.isConsumable == true)
        #expect(snapshot.nonSubscriptions.first?.purchases.first?.verified == true)
    }

    @Test func aMalformedLifecycleMemberNamesItsPath() {
        let body = #"{"profile":{"access_levels":{"premium":{"vendor_product_id":"m","activated_at":"2024-01-01T00:00:00.000Z","cancellation_reason":"bored"}}}}"#
        #expect(throws: WireError.self) { try RemoteProfile.parse(Array(body.utf8)) }
    }
}
