import PaywireWire

/// What a purchase of a product grants, and how its transaction is finished. The one place
/// that knows the four kinds the stores sell.
public enum ProductType: String, WireEnum, Sendable {
    /// Used up (coins, lives): grants no access level, is recorded in `non_subscriptions`, and
    /// is consumed only once the backend has it.
    case consumable
    /// Bought once and kept: its access level for life.
    case non_consumable
    /// Renews by itself: its access level until the store's expiry.
    case autorenewable
    /// Bought for a duration (its `period`) and not renewed.
    case non_renewing

    /// Whether the product has a period (a subscription length or a bought duration).
    public var hasPeriod: Bool { self == .autorenewable || self == .non_renewing }

    /// The type a product has when nobody named one: a period makes it a subscription
    /// (renewing unless the store says otherwise), no period a non-consumable.
    package static func inferred(hasPeriod: Bool, autoRenews: Bool) -> ProductType {
        guard hasPeriod else { return .non_consumable }
        return autoRenews ? .autorenewable : .non_renewing
    }
}
