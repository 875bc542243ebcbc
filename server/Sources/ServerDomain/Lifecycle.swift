import PaywireModel

/// A subscription's lifecycle as the stores report it, kept per original transaction id: the
/// fields of issue 19 that the profile's grants carry. Times are milliseconds since the epoch.
package struct LifecycleState: Sendable, Equatable {
    package var transactionId: String
    package var vendorProductId: String
    /// Nil: for life (a non-consumable), until a refund or revocation dates its end.
    package var expiresAt: Int?
    package var renewedAt: Int?
    package var willRenew: Bool
    package var isInGracePeriod = false
    package var gracePeriodExpiresAt: Int?
    package var billingIssueDetectedAt: Int?
    package var unsubscribedAt: Int?
    package var cancellationReason: CancellationReason?
    package var isRefund = false
    package var refundedAt: Int?
    /// The product the subscription renews into when it is not `vendorProductId` (a downgrade
    /// or crossgrade waiting for the renewal).
    package var willRenewProductId: String?
    /// The product `vendorProductId` replaced, when, and whether by an upgrade (at once) or at
    /// a renewal: the replaced product's grant ends then.
    package var replacedProductId: String?
    package var productChangedAt: Int?
    package var replacedByUpgrade = false

    package init(transactionId: String, vendorProductId: String, expiresAt: Int? = nil, renewedAt: Int? = nil,
                 willRenew: Bool, isInGracePeriod: Bool = false, gracePeriodExpiresAt: Int? = nil,
                 billingIssueDetectedAt: Int? = nil, unsubscribedAt: Int? = nil, cancellationReason: CancellationReason? = nil,
                 isRefund: Bool = false, refundedAt: Int? = nil, willRenewProductId: String? = nil,
                 replacedProductId: String? = nil, productChangedAt: Int? = nil, replacedByUpgrade: Bool = false) {
        self.transactionId = transactionId
        self.vendorProductId = vendorProductId
        self.expiresAt = expiresAt
        self.renewedAt = renewedAt
        self.willRenew = willRenew
        self.isInGracePeriod = isInGracePeriod
        self.gracePeriodExpiresAt = gracePeriodExpiresAt
        self.billingIssueDetectedAt = billingIssueDetectedAt
        self.unsubscribedAt = unsubscribedAt
        self.cancellationReason = cancellationReason
        self.isRefund = isRefund
        self.refundedAt = refundedAt
        self.willRenewProductId = willRenewProductId
        self.replacedProductId = replacedProductId
        self.productChangedAt = productChangedAt
        self.replacedByUpgrade = replacedByUpgrade
    }

    /// Its times as the one rule the device also judges grants by (the model's `GrantStanding`).
    package var standing: GrantStanding {
        GrantStanding(expiresAt: expiresAt, isRefund: isRefund, isInGracePeriod: isInGracePeriod,
                      gracePeriodExpiresAt: gracePeriodExpiresAt)
    }

    package func isActive(now: Int) -> Bool { standing.isActive(now: now) }
}

/// The App Store Server Notifications v2 vocabulary every store's notifications are mapped onto.
package enum NotificationKind: String, Sendable, CaseIterable {
    case subscribed = "SUBSCRIBED"
    case didRenew = "DID_RENEW"
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
    case expired = "EXPIRED"
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    case refund = "REFUND"
    case revoke = "REVOKE"
    /// A plan change: UPGRADE takes effect at once (its transaction is the new product's), a
    /// DOWNGRADE or crossgrade at the next renewal (the renewal info names the product).
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    /// Apple asks for consumption data; nothing about access changes.
    case consumptionRequest = "CONSUMPTION_REQUEST"
    /// Any other type a store sends (Play's pause or price-change notices, App Store types
    /// not handled here): recorded, so it is idempotent too, and nothing changes.
    case other = "OTHER"
}

/// One notification, store-neutral: what happened and what the store said with it. Members a
/// store did not send are nil and the rules fall back on the current state.
package struct LifecycleEvent: Sendable {
    package let kind: NotificationKind
    /// The store's own name of the type (`DID_RENEW`, `SUBSCRIPTION_PAUSED`), as recorded.
    package let storeType: String
    package let subtype: String?
    /// When the store says it happened (signedDate / eventTimeMillis / event_at).
    package let at: Int
    package var transactionId: String?
    package var vendorProductId: String?
    package var expiresAt: Int?
    package var gracePeriodExpiresAt: Int?
    /// When a refund or revocation took effect (revocationDate, refunded_at).
    package var refundedAt: Int?
    /// An explicit renewal status (App Store renewal info, test store) wins over the rule's.
    package var willRenew: Bool?
    package var cancellationReason: CancellationReason?
    /// The product the subscription renews into (App Store renewal info's autoRenewProductId).
    package var autoRenewProductId: String?

    package init(kind: NotificationKind, storeType: String, subtype: String?, at: Int, transactionId: String? = nil,
                 vendorProductId: String? = nil, expiresAt: Int? = nil, gracePeriodExpiresAt: Int? = nil,
                 refundedAt: Int? = nil, willRenew: Bool? = nil, cancellationReason: CancellationReason? = nil,
                 autoRenewProductId: String? = nil) {
        self.kind = kind
        self.storeType = storeType
        self.subtype = subtype
        self.at = at
        self.transactionId = transactionId
        self.vendorProductId = vendorProductId
        self.expiresAt = expiresAt
        self.gracePeriodExpiresAt = gracePeriodExpiresAt
        self.refundedAt = refundedAt
        self.willRenew = willRenew
        self.cancellationReason = cancellationReason
        self.autoRenewProductId = autoRenewProductId
    }
}

/// What a notification does to a grant.
package enum LifecycleAction: Sendable, Equatable {
    /// Store the new state; the profile changes.
    case update(LifecycleState)
    /// The store says what the grant already says. The first time the store speaks of a
    /// subscription this is news all the same (see `StorageRules.notification`).
    case confirm(LifecycleState)
    /// Record the notification only (nothing about access changes).
    case record(reason: String)
}

/// The lifecycle rules: the current state and a notification in, the action out. Pure, so the
/// routes of every store share it and a test can walk it step by step.
package enum Lifecycle {
    package static func apply(_ state: LifecycleState, _ event: LifecycleEvent) -> LifecycleAction {
        if [.refund, .revoke].contains(event.kind), let product = event.vendorProductId, product != state.vendorProductId,
           product == state.replacedProductId {
            return .record(reason: "\(event.storeType) of '\(product)', which a plan change replaced: its grant already ended; the current one stands")
        }
        var next = state
        next.transactionId = event.transactionId ?? state.transactionId
        next.vendorProductId = event.vendorProductId ?? state.vendorProductId
        switch event.kind {
        case .subscribed, .didRenew: renewed(&next, event)
        case .didFailToRenew: failedToRenew(&next, event)
        case .gracePeriodExpired:
            // Billing never recovered: the grace ends now, the billing issue stays on record.
            next.isInGracePeriod = false
            next.gracePeriodExpiresAt = event.gracePeriodExpiresAt ?? state.gracePeriodExpiresAt ?? event.at
        case .expired: expired(&next, event)
        case .didChangeRenewalStatus:
            guard let status = renewalStatus(event) else {
                return .record(reason: "DID_CHANGE_RENEWAL_STATUS without AUTO_RENEW_ENABLED or AUTO_RENEW_DISABLED")
            }
            next.willRenew = status
            // Turning renewal off is the user unsubscribing; on again takes that back.
            next.unsubscribedAt = status ? nil : (state.unsubscribedAt ?? event.at)
            next.cancellationReason = status ? nil : (event.cancellationReason ?? .voluntarily_cancelled)
        case .refund: ended(&next, event, at: event.refundedAt ?? event.at, reason: .refund, refund: true)
        case .revoke:
            // The App Store dates a revocation (Family Sharing withdrawn) like a refund, by revocationDate.
            ended(&next, event, at: event.refundedAt ?? event.at, reason: event.cancellationReason ?? .unknown, refund: false)
        case .didChangeRenewalPref:
            // A downgrade or crossgrade waits for the renewal: only what it renews into changes.
            if event.subtype == "UPGRADE" {
                renewed(&next, event)
                next.renewedAt = nil  // the new product's first period, not a renewal
            }
        case .consumptionRequest: return .record(reason: "CONSUMPTION_REQUEST is recorded; access does not change")
        case .other: return .record(reason: "this notification type is recorded; access does not change")
        }
        // The store's renewal status, when sent, is the truth while the subscription goes on;
        // once it ended (expired, refunded, revoked) nothing renews, whatever it still says.
        if let willRenew = event.willRenew, [.subscribed, .didRenew, .didFailToRenew, .gracePeriodExpired].contains(event.kind) {
            next.willRenew = willRenew
        }
        changedProduct(&next, from: state, event)
        return next == state ? .confirm(next) : .update(next)
    }

    /// A new product in effect (an upgrade at once, a downgrade or crossgrade at its renewal)
    /// ends the replaced product's grant then; the product renewed into is named while it
    /// differs from the one in effect.
    private static func changedProduct(_ next: inout LifecycleState, from state: LifecycleState, _ event: LifecycleEvent) {
        if next.vendorProductId != state.vendorProductId {
            next.replacedProductId = state.vendorProductId
            next.productChangedAt = event.at
            next.replacedByUpgrade = event.kind == .didChangeRenewalPref && event.subtype == "UPGRADE"
            next.willRenewProductId = nil
        }
        if let product = event.autoRenewProductId { next.willRenewProductId = product == next.vendorProductId ? nil : product }
    }

    /// SUBSCRIBED (a first buy or a resubscribe) and DID_RENEW (a renewal, or billing
    /// recovered): a new period, every trouble of the last one cleared.
    private static func renewed(_ next: inout LifecycleState, _ event: LifecycleEvent) {
        if let expiresAt = event.expiresAt { next.expiresAt = expiresAt }
        let isFirstBuy = event.kind == .subscribed && event.subtype != "RESUBSCRIBE"
        next.renewedAt = isFirstBuy ? next.renewedAt : event.at
        next.willRenew = true
        next.isInGracePeriod = false
        next.gracePeriodExpiresAt = nil
        next.billingIssueDetectedAt = nil
        next.unsubscribedAt = nil
        next.cancellationReason = nil
        if event.kind == .subscribed {
            // A resubscription after a refund is a new purchase of the same subscription.
            next.isRefund = false
            next.refundedAt = nil
        }
    }

    /// DID_FAIL_TO_RENEW: a billing issue; with the GRACE_PERIOD subtype access goes on until
    /// the grace period's end, without it access ends at the expiry (billing retry).
    private static func failedToRenew(_ next: inout LifecycleState, _ event: LifecycleEvent) {
        next.billingIssueDetectedAt = next.billingIssueDetectedAt ?? event.at
        if event.subtype == "GRACE_PERIOD" {
            next.isInGracePeriod = true
            next.gracePeriodExpiresAt = event.gracePeriodExpiresAt ?? next.gracePeriodExpiresAt ?? next.expiresAt
        } else {
            next.isInGracePeriod = false
            next.gracePeriodExpiresAt = nil
        }
    }

    /// EXPIRED: access is over, for the reason its subtype gives.
    private static func expired(_ next: inout LifecycleState, _ event: LifecycleEvent) {
        let end = event.expiresAt ?? min(next.expiresAt ?? event.at, event.at)
        next.expiresAt = end
        next.willRenew = false
        next.isInGracePeriod = false
        next.cancellationReason = event.cancellationReason ?? expiryReason(event.subtype) ?? next.cancellationReason ?? .unknown
        if next.cancellationReason == .voluntarily_cancelled { next.unsubscribedAt = next.unsubscribedAt ?? end }
    }

    /// REFUND and REVOKE: access ends at `time`, even a lifetime one (its end is dated then).
    private static func ended(_ next: inout LifecycleState, _ event: LifecycleEvent, at time: Int, reason: CancellationReason, refund: Bool) {
        next.expiresAt = min(next.expiresAt ?? time, time)
        next.willRenew = false
        next.isInGracePeriod = false
        next.cancellationReason = reason
        if refund {
            next.isRefund = true
            next.refundedAt = time
        }
    }

    private static func renewalStatus(_ event: LifecycleEvent) -> Bool? {
        switch event.subtype {
        case "AUTO_RENEW_ENABLED"?: return true
        case "AUTO_RENEW_DISABLED"?: return false
        default: return event.willRenew
        }
    }

    /// The App Store's EXPIRED subtypes as the profile's cancellation reasons.
    package static func expiryReason(_ subtype: String?) -> CancellationReason? {
        switch subtype {
        case "VOLUNTARY"?: return .voluntarily_cancelled
        case "BILLING_RETRY"?: return .billing_error
        case "PRICE_INCREASE"?: return .price_increase
        case "PRODUCT_NOT_FOR_SALE"?: return .product_was_not_available
        default: return nil
        }
    }
}
