import PaywireWire

/// Why a subscription will not renew, as the stores report it: the one list the device's profile,
/// the backend's lifecycle rules and the wire's `cancellation_reason` share.
public enum CancellationReason: String, WireEnum, Sendable {
    case voluntarily_cancelled, billing_error, price_increase, product_was_not_available, refund, upgraded, unknown
}

/// Who gave a grant: the backend's answer (`verified`), the device's own word (a purchase or a
/// restore the backend has not answered yet, or no backend at all), or the store's current
/// entitlements while the backend has not answered (`OfflineAccessRules`; never verified).
public enum GrantSource: String, WireEnum, Sendable {
    case backend, device, offline
}

/// Whose purchase gives a grant: the user's own, or a family member's through the App Store's
/// Family Sharing (which the App Store can withdraw with REVOKE).
public enum OwnershipType: String, WireEnum, Sendable {
    case purchased, family_shared
}

extension Profile {
    /// Access a purchase gave, with its lifecycle as the backend reports it (and as the device
    /// knows it until then). Times are ms since the epoch. A value: copies share nothing, any
    /// thread may hold one. Its JSON form is `members` and `init(_:path:)` (Grant+JSON), for the
    /// device and the backend alike.
    public struct Grant: Equatable, Sendable {
        /// The store product that granted it.
        public let vendorProductId: String
        /// When the purchase gave access.
        public let activatedAt: WideInt
        /// Nil: for life.
        public var expiresAt: WideInt?
        /// Confirmed by the backend. A grant made on the device's word (a purchase the backend
        /// has not answered yet, or no backend at all) is not.
        public var verified = false
        /// Who gave it: the backend, unless the rule that made it on the device said otherwise
        /// (`AccessRules` marks its grants `device`, offline access its own `offline`).
        public var source = GrantSource.backend
        /// Whether the backend's signature covers it (`response_verification`): the check of the
        /// answer that gave it for the backend's grants, `store` for the device's and offline
        /// ones (set where their source is). The device's mark, never the backend's.
        public var verification = Verification.not_requested
        /// The store transaction behind it, when known; nil otherwise.
        public var transactionId: String?
        /// The first transaction of its subscription (what renewals and notifications name).
        public var originalTransactionId: String?
        /// The store that sold it (`test`, `app_store`, `play_store`, ...); nil when unknown.
        public var store: String?
        /// A sandbox (or test-store) transaction.
        public var isSandbox = false
        /// A non-consumable's access: never expires.
        public var isLifetime = false
        /// A start in the future (a deferred or upgraded plan).
        public var startsAt: WideInt?
        /// The last renewal; nil before the first.
        public var renewedAt: WideInt?
        /// The store will renew it at `expiresAt`.
        public var willRenew = false
        /// The store retries a failed renewal; access lasts until `gracePeriodExpiresAt`.
        public var isInGracePeriod = false
        /// The grace period's end, while `isInGracePeriod`.
        public var gracePeriodExpiresAt: WideInt?
        /// When the store first failed to bill the renewal; nil once billing recovered.
        public var billingIssueDetectedAt: WideInt?
        /// When the user turned renewal off; nil while it is on.
        public var unsubscribedAt: WideInt?
        /// Why it will not renew; nil while it will.
        public var cancellationReason: CancellationReason?
        /// Refunded: access ended at `refundedAt`.
        public var isRefund = false
        /// When the refund took effect.
        public var refundedAt: WideInt?
        /// The store's introductory offer the current period was bought with, by its payment
        /// mode; nil once a full-price period began (or none was used).
        package var activeIntroductoryOfferType: IntroOffer.PaymentMode?
        /// The promotional offer the current period was bought with, if any.
        public var activePromotionalOfferId: String?
        /// Whose purchase gives the access (the App Store's inAppOwnershipType); nil when the
        /// store did not say.
        public var ownershipType: OwnershipType?
        /// The product the subscription renews into at `expiresAt` when the user changed plans
        /// for the next period (a downgrade or crossgrade); nil when it renews into its own.
        public var willRenewVendorProductId: String?

        /// Sets `activeIntroductoryOfferType` from the payment mode's wire name (`free_trial`,
        /// `pay_as_you_go`, `pay_up_front`), so a reader outside this package (the backend) need
        /// not know the catalog's type; nil or a name the schema does not list sets none.
        public mutating func setActiveIntroductoryOffer(paymentMode: String?) {
            activeIntroductoryOfferType = paymentMode.flatMap(IntroOffer.PaymentMode.init(rawValue:))
        }

        /// A grant of `vendorProductId` from `activatedAt` until `expiresAt` (nil: for life),
        /// every lifecycle member at its default.
        public init(vendorProductId: String, activatedAt: WideInt, expiresAt: WideInt?) {
            self.vendorProductId = vendorProductId
            self.activatedAt = activatedAt
            self.expiresAt = expiresAt
        }

        /// Its times, as the one rule for access and ranking reads them.
        public var standing: GrantStanding {
            GrantStanding(startsAt: startsAt, expiresAt: expiresAt, isRefund: isRefund, isInGracePeriod: isInGracePeriod,
                          gracePeriodExpiresAt: gracePeriodExpiresAt)
        }

        /// Whether it gives access at `now` (`GrantStanding.isActive`).
        public func isActive(now: WideInt) -> Bool { standing.isActive(now: now) }

        /// The first time after `now` at which `isActive` may change; nil when it never will.
        package func nextChange(after now: WideInt) -> WideInt? { standing.nextChange(after: now) }

        /// Whether `self` should replace `other` under one id (`GrantStanding.outranks`).
        public func outranks(_ other: Grant) -> Bool { standing.outranks(other.standing) }
    }

    /// A consumable or non-consumable purchase, as `profile.non_subscriptions` lists it. A value,
    /// like `Grant`; its JSON form is in Grant+JSON.
    public struct NonSubscription: Equatable, Sendable {
        /// The store's transaction id.
        public let purchaseId: String
        /// The store product bought.
        public let vendorProductId: String
        /// When it was bought (ms since the epoch).
        public let purchasedAt: WideInt
        /// Used up (coins, lives) rather than kept.
        public let isConsumable: Bool
        /// Refunded.
        public var isRefund = false
        /// A sandbox (or test-store) transaction.
        public var isSandbox = false
        /// The store that sold it; nil when unknown.
        public var store: String?
        /// Confirmed by the backend.
        public var verified = false

        /// A purchase of `vendorProductId`, every other member at its default.
        public init(purchaseId: String, vendorProductId: String, purchasedAt: WideInt, isConsumable: Bool) {
            self.purchaseId = purchaseId
            self.vendorProductId = vendorProductId
            self.purchasedAt = purchasedAt
            self.isConsumable = isConsumable
        }
    }
}
