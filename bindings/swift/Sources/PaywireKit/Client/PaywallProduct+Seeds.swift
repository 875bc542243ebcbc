/// The names the seeds' product has for what the wire calls `price.localized_string` and
/// `subscription.localized_period`, for a paywall drawn from them.
extension PaywallProduct {
    /// The price as the store formats it for the user (`"$9.99"`).
    public var localizedPrice: String { price.localizedString }

    /// The subscription period as the store words it (`"1 month"`); nil for a product that is
    /// not a subscription.
    public var localizedSubscriptionPeriod: String? { subscription?.localizedPeriod }
}
