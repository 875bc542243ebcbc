/// What the store keeps of web purchases (Stripe): the links of Stripe's ids to purchases and
/// profiles, completed checkouts and their redemption state. Values the rules decide on
/// (`StripeRules`, `Redemption`) and the store reads and writes.
struct StripeLink: Sendable, Equatable {
    let stripeId: String
    /// The purchase the id belongs to; nil for a customer (a customer may buy more than once).
    let originalTransactionId: String?
    let profileId: String
}

/// A completed checkout: the purchase, and the profile holding it (the one it named, or the
/// redemption holder `web_purchase:<session id>`).
struct WebCheckout: Sendable, Equatable {
    let checkoutSessionId: String
    let originalTransactionId: String
    let holder: String
    /// False when the checkout named its profile: there is nothing to redeem.
    let redeemable: Bool
    let completedAt: Int
}

/// Who holds a completed checkout, whether it redeems, who redeemed it, and the digest and
/// expiry of the redemption link given last (nil before any).
struct WebCheckoutState: Sendable, Equatable {
    let holder: String
    let redeemable: Bool
    let redeemedBy: String?
    var tokenDigest: String? = nil
    var tokenExpiresAt: Int? = nil
}
