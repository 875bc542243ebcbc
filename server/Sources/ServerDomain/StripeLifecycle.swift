/// A Stripe subscription's events in the App Store vocabulary the lifecycle rules speak
/// (`Lifecycle`). Pure: the subscription's facts and the event type in, the event out.
package enum StripeLifecycle {
    /// What a subscription object says that access depends on.
    package struct SubscriptionFacts: Sendable {
        package let status: String
        /// The paid period's end (ms): the subscription's, or its item's in newer API versions.
        package let periodEnd: Int?
        package let cancelAtPeriodEnd: Bool
        package let endedAt: Int?
        /// `cancellation_details.reason`: cancellation_requested, payment_failed, payment_disputed.
        package let cancellationReason: String?
        /// The members `previous_attributes` names (what an update changed).
        package let changed: Set<String>
        package let previousStatus: String?
    }

    /// Statuses in which the subscription's access goes on.
    package static let live: Set<String> = ["active", "trialing"]
    /// Statuses in which access is over.
    package static let over: Set<String> = ["canceled", "unpaid", "incomplete_expired", "paused"]

    /// The lifecycle event of a `customer.subscription.*` event; nil with the reason it is
    /// only recorded.
    package static func subscription(_ type: String, _ facts: SubscriptionFacts, at: Int) -> (LifecycleEvent?, String?) {
        func event(_ kind: NotificationKind, _ subtype: String? = nil) -> LifecycleEvent {
            LifecycleEvent(kind: kind, storeType: type, subtype: subtype, at: at)
        }
        if type == "customer.subscription.deleted" || over.contains(facts.status) {
            var ended = event(.expired, expirySubtype(facts))
            // unpaid and paused end access now; a cancellation at its ended_at.
            ended.expiresAt = facts.endedAt ?? at
            return (ended, nil)
        }
        if facts.status == "past_due" {
            // A renewal's payment failed: access ends with the paid period, unless it recovers.
            return (event(.didFailToRenew), nil)
        }
        guard live.contains(facts.status) else {
            return (nil, "a subscription in status \(facts.status) grants nothing yet: recorded")
        }
        var next: LifecycleEvent
        if type == "customer.subscription.created" || facts.previousStatus == "incomplete" {
            next = event(.subscribed)
        } else if facts.changed.contains("items") || facts.changed.contains("plan") {
            // Stripe applies a price change at once (with proration): the old product's grant ends.
            next = event(.didChangeRenewalPref, "UPGRADE")
        } else if let previous = facts.previousStatus, ["past_due", "unpaid", "paused"].contains(previous) {
            next = event(.didRenew, "BILLING_RECOVERY")
        } else if facts.changed.contains("current_period_end") {
            next = event(.didRenew)
        } else if facts.changed.contains("cancel_at_period_end") || facts.changed.contains("cancel_at") {
            next = event(.didChangeRenewalStatus, facts.cancelAtPeriodEnd ? "AUTO_RENEW_DISABLED" : "AUTO_RENEW_ENABLED")
            next.willRenew = !facts.cancelAtPeriodEnd
            return (next, nil)
        } else {
            return (nil, "nothing access depends on changed: recorded")
        }
        next.expiresAt = facts.periodEnd
        next.willRenew = !facts.cancelAtPeriodEnd
        return (next, nil)
    }

    /// The App Store EXPIRED subtype of a subscription's end (`Lifecycle.expiryReason`).
    package static func expirySubtype(_ facts: SubscriptionFacts) -> String? {
        if facts.status == "unpaid" { return "BILLING_RETRY" }
        switch facts.cancellationReason {
        case "cancellation_requested"?: return "VOLUNTARY"
        case "payment_failed"?: return "BILLING_RETRY"
        default: return nil
        }
    }
}
