import PaywireModel
import PaywireWire

/// How `get_paywall` may use cached data. With only a bundle as source every policy serves the
/// bundle; the remote source and the cache give them their distinct behaviour.
enum FetchPolicy: String, WireEnum, Sendable {
    case reload_revalidating_cache_data
    case return_cache_data_else_load
    case return_cache_data_if_not_expired_else_load
}

/// The checked parameters of a paywall or onboarding request.
struct PlacementRequest: Sendable {
    /// Default time budget for a load, in seconds.
    static let defaultLoadTimeout = 5.0
    /// Budgets under this are raised to it (with a warning): less leaves no time for a network.
    static let minimumLoadTimeout = 1.0

    let placementId: String
    /// `get_paywall {paywall_id}`: serve the variation showing this paywall, rules skipped.
    let paywallId: String?
    let locale: String?
    let fetchPolicy: FetchPolicy
    let loadTimeout: Double
    let maxAge: Double?
    /// Set when `load_timeout` was raised to the minimum.
    let clampedLoadTimeout: Double?

    init(_ params: Fields) throws(WireError) {
        placementId = try params.identifier("placement_id")
        paywallId = try params.optionalString("paywall_id")
        if paywallId?.isEmpty == true { throw WireError.wrongParam("paywall_id", "must not be empty") }
        locale = try params.optionalString("locale")
        fetchPolicy = try params.optionalEnum("fetch_policy", FetchPolicy.self) ?? .reload_revalidating_cache_data
        maxAge = try params.optionalSeconds("max_age")
        if fetchPolicy == .return_cache_data_if_not_expired_else_load, maxAge == nil {
            throw WireError.wrongParam("max_age", "is required with fetch_policy return_cache_data_if_not_expired_else_load")
        }
        (loadTimeout, clampedLoadTimeout) = try PlacementRequest.loadTimeout(params)
    }

    /// `load_timeout` in seconds (default 5) and, when it was raised to the 1 s minimum, what
    /// was asked.
    static func loadTimeout(_ params: Fields) throws(WireError) -> (Double, clamped: Double?) {
        let requested = try params.optionalSeconds("load_timeout")
        if let requested, requested < minimumLoadTimeout { return (minimumLoadTimeout, requested) }
        return (requested ?? defaultLoadTimeout, nil)
    }
}
