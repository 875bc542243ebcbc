/// What the store keeps of web purchases (Stripe): the links of Stripe's ids to purchases and
/// profiles, completed checkouts and their redemption state. Values the rules decide on
/// (`StripeRules`, `Redemption`) and the store reads and writes.
package struct StripeLink: Sendable, Equatable {
    package let stripeId: String
    /// The purchase the id belongs to; nil for a customer (a customer may buy more than once).
    package let originalTransactionId: String?
    package let profileId: String

    package init(stripeId: String, originalTransactionId: String?, profileId: String) {
        self.stripeId = stripeId
        self.originalTransactionId = originalTransactionId
        self.profileId = profileId
    }
}

/// A completed checkout: the purchase, and the profile holding it (the one it named, or the
/// redemption holder `web_purchase:<session id>`).
package struct WebCheckout: Sendable, Equatable {
    package let checkoutSessionId: String
    package let originalTransactionId: String
    package let holder: String
    /// False when the checkout named its profile: there is nothing to redeem.
    package let redeemable: Bool
    package let completedAt: Int

    package init(checkoutSessionId: String, originalTransactionId: String, holder: String, redeemable: Bool, completedAt: Int) {
        self.checkoutSessionId = checkoutSessionId
        self.originalTransactionId = originalTransactionId
        self.holder = holder
        self.redeemable = redeemable
        self.completedAt = completedAt
    }
}

/// Who holds a completed checkout, whether it redeems, who redeemed it, and the digest and
/// expiry of the redemption link given last (nil before any).
package struct WebCheckoutState: Sendable, Equatable {
    package let holder: String
    package let redeemable: Bool
    package let redeemedBy: String?
    package var tokenDigest: String? = nil
    package var tokenExpiresAt: Int? = nil

    package init(holder: String, redeemable: Bool, redeemedBy: String?, tokenDigest: String? = nil, tokenExpiresAt: Int? = nil) {
        self.holder = holder
        self.redeemable = redeemable
        self.redeemedBy = redeemedBy
        self.tokenDigest = tokenDigest
        self.tokenExpiresAt = tokenExpiresAt
    }
}
