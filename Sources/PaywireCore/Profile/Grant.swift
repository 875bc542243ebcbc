/// Why a subscription will not renew, as the stores report it.
enum CancellationReason: String, CaseIterable, Sendable {
    case voluntarily_cancelled, billing_error, price_increase, product_was_not_available, refund, upgraded, unknown
}

extension Profile {
    /// Access a purchase gave, with its lifecycle as the backend reports it (and as the device
    /// knows it until then). Times are ms since the epoch.
    struct Grant: Equatable, Sendable {
        let vendorProductId: String
        let activatedAt: Int
        /// Nil: for life.
        var expiresAt: Int?
        /// Confirmed by the backend. A grant made on the device's word (a purchase the backend
        /// has not answered yet, or no backend at all) is not.
        var verified = false
        /// The store transaction behind it, when known.
        var transactionId: String?
        var originalTransactionId: String?
        var store: String?
        var isSandbox = false
        /// A non-consumable's access: never expires.
        var isLifetime = false
        /// A start in the future (a deferred or upgraded plan).
        var startsAt: Int?
        var renewedAt: Int?
        var willRenew = false
        var isInGracePeriod = false
        var gracePeriodExpiresAt: Int?
        var billingIssueDetectedAt: Int?
        var unsubscribedAt: Int?
        var cancellationReason: CancellationReason?
        var isRefund = false
        var refundedAt: Int?
        var activeIntroductoryOfferType: IntroOffer.PaymentMode?
        var activePromotionalOfferId: String?

        init(vendorProductId: String, activatedAt: Int, expiresAt: Int?) {
            self.vendorProductId = vendorProductId
            self.activatedAt = activatedAt
            self.expiresAt = expiresAt
        }

        /// Whether it gives access at `now`: not refunded, started, and before its expiry (or
        /// its grace period's end while the store retries a failed renewal).
        func isActive(now: Int) -> Bool {
            Grant.isActive(now: now, startsAt: startsAt, expiresAt: expiresAt, isRefund: isRefund,
                           isInGracePeriod: isInGracePeriod, gracePeriodExpiresAt: gracePeriodExpiresAt)
        }

        /// The rule itself, for the dev backend too (`DevServerSupport.grantIsActive`).
        static func isActive(now: Int, startsAt: Int?, expiresAt: Int?, isRefund: Bool, isInGracePeriod: Bool,
                             gracePeriodExpiresAt: Int?) -> Bool {
            if isRefund { return false }
            if let startsAt, startsAt > now { return false }
            guard let expiresAt else { return true }
            if expiresAt > now { return true }
            if isInGracePeriod, let grace = gracePeriodExpiresAt { return grace > now }
            return false
        }

        /// The first time after `now` at which `isActive` may change; nil when it never will.
        func nextChange(after now: Int) -> Int? {
            guard !isRefund else { return nil }
            return [startsAt, expiresAt, isInGracePeriod ? gracePeriodExpiresAt : nil].compactMap { $0 }.filter { $0 > now }.min()
        }

        /// Whether `self` should replace `other` under one id: the one that lasts longer wins
        /// (for life outlasts any date), and a live grant beats a refunded one.
        func outlasts(_ other: Grant) -> Bool {
            if isRefund != other.isRefund { return other.isRefund }
            return (expiresAt ?? .max) > (other.expiresAt ?? .max)
        }
    }

    /// A consumable or non-consumable purchase, as `profile.non_subscriptions` lists it.
    struct NonSubscription: Equatable, Sendable {
        /// The store's transaction id.
        let purchaseId: String
        let vendorProductId: String
        let purchasedAt: Int
        let isConsumable: Bool
        var isRefund = false
        var isSandbox = false
        var store: String?
        var verified = false
    }
}
