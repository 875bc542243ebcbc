import PaywireWire

/// Why a subscription will not renew, as the stores report it.
package enum CancellationReason: String, CaseIterable, Sendable {
    case voluntarily_cancelled, billing_error, price_increase, product_was_not_available, refund, upgraded, unknown
}

extension Profile {
    /// Access a purchase gave, with its lifecycle as the backend reports it (and as the device
    /// knows it until then). Times are ms since the epoch.
    package struct Grant: Equatable, Sendable {
        package let vendorProductId: String
        package let activatedAt: Int
        /// Nil: for life.
        package var expiresAt: Int?
        /// Confirmed by the backend. A grant made on the device's word (a purchase the backend
        /// has not answered yet, or no backend at all) is not.
        package var verified = false
        /// The store transaction behind it, when known.
        package var transactionId: String?
        package var originalTransactionId: String?
        package var store: String?
        package var isSandbox = false
        /// A non-consumable's access: never expires.
        package var isLifetime = false
        /// A start in the future (a deferred or upgraded plan).
        package var startsAt: Int?
        package var renewedAt: Int?
        package var willRenew = false
        package var isInGracePeriod = false
        package var gracePeriodExpiresAt: Int?
        package var billingIssueDetectedAt: Int?
        package var unsubscribedAt: Int?
        package var cancellationReason: CancellationReason?
        package var isRefund = false
        package var refundedAt: Int?
        package var activeIntroductoryOfferType: IntroOffer.PaymentMode?
        package var activePromotionalOfferId: String?

        package init(vendorProductId: String, activatedAt: Int, expiresAt: Int?) {
            self.vendorProductId = vendorProductId
            self.activatedAt = activatedAt
            self.expiresAt = expiresAt
        }

        /// Its times, as the one rule for access and ranking reads them.
        package var standing: GrantStanding {
            GrantStanding(startsAt: startsAt, expiresAt: expiresAt, isRefund: isRefund, isInGracePeriod: isInGracePeriod,
                          gracePeriodExpiresAt: gracePeriodExpiresAt)
        }

        /// Whether it gives access at `now` (`GrantStanding.isActive`).
        package func isActive(now: Int) -> Bool { standing.isActive(now: now) }

        /// The first time after `now` at which `isActive` may change; nil when it never will.
        package func nextChange(after now: Int) -> Int? { standing.nextChange(after: now) }

        /// Whether `self` should replace `other` under one id (`GrantStanding.outranks`).
        package func outranks(_ other: Grant) -> Bool { standing.outranks(other.standing) }
    }

    /// A consumable or non-consumable purchase, as `profile.non_subscriptions` lists it.
    package struct NonSubscription: Equatable, Sendable {
        /// The store's transaction id.
        package let purchaseId: String
        package let vendorProductId: String
        package let purchasedAt: Int
        package let isConsumable: Bool
        package var isRefund = false
        package var isSandbox = false
        package var store: String?
        package var verified = false
    }
}
