import PaywireModel
@testable import ServerDomain
@testable import ServerStore
import Testing
@testable import paywire_server

/// What a notification does to the lifecycle stored for its subscription: the rule both engines
/// apply (`StorageRules.notification`).
@Suite struct NotificationRuleTests {
    private let latest = StorageRules.LatestTransaction(owner: "p", transactionId: "t-1", vendorProductId: "monthly",
                                                       expiresAt: 5_000, productType: .autorenewable)

    private func notification(_ kind: NotificationKind, subtype: String? = nil, expiresAt: Int? = nil) -> StoreNotification {
        var event = LifecycleEvent(kind: kind, storeType: kind.rawValue, subtype: subtype, at: 1_000)
        event.expiresAt = expiresAt
        return StoreNotification(source: .test, notificationId: "n", originalTransactionId: "t-1", event: event, text: "{}")
    }

    /// What the purchase alone says of the subscription, before any notification.
    private var purchaseOwn: LifecycleState {
        LifecycleState(transactionId: "t-1", vendorProductId: "monthly", expiresAt: 5_000, willRenew: true)
    }

    @Test func theStoresFirstWordIsKeptEvenWhenItOnlyConfirmsThePurchase() {
        let decision = StorageRules.notification(notification(.subscribed, subtype: "INITIAL_BUY", expiresAt: 5_000),
                                                 latest: latest, stored: nil)
        #expect(decision.outcome == .applied)
        #expect(decision.save == purchaseOwn)
    }

    @Test func aLaterNotificationThatChangesNothingIsRecordedAndSavesNothing() {
        let decision = StorageRules.notification(notification(.subscribed, subtype: "INITIAL_BUY", expiresAt: 5_000),
                                                 latest: latest, stored: purchaseOwn)
        #expect(decision.outcome == .recorded)
        #expect(decision.save == nil)
    }

    @Test func aNotificationThatChangesTheGrantIsApplied() {
        let decision = StorageRules.notification(notification(.didRenew, expiresAt: 9_000), latest: latest, stored: purchaseOwn)
        #expect(decision.outcome == .applied)
        #expect(decision.save?.expiresAt == 9_000)
        #expect(decision.save?.renewedAt == 1_000)
    }

    @Test func aTypeThatDoesNotTouchAccessIsRecordedEvenAsTheFirstWord() {
        for kind in [NotificationKind.consumptionRequest, .other] {
            let decision = StorageRules.notification(notification(kind), latest: latest, stored: nil)
            #expect(decision.outcome == .recorded)
            #expect(decision.save == nil)
        }
        let noStatus = StorageRules.notification(notification(.didChangeRenewalStatus), latest: latest, stored: nil)
        #expect(noStatus.outcome == .recorded && noStatus.save == nil)
    }
}
