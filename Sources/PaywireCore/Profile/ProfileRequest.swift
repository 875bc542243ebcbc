import PaywireModel
import PaywireWire

/// The checked parameters of `get_profile`.
struct ProfileRequest: Sendable {
    /// Ask the backend (the default with a remote source), or answer from the device at once.
    let fetchFromBackend: Bool
    let loadTimeout: Double
    let clampedLoadTimeout: Double?

    init(_ params: Fields) throws(WireError) {
        switch try params.optionalEnum("fetch_policy", FetchPolicy.self) ?? .reload_revalidating_cache_data {
        case .reload_revalidating_cache_data: fetchFromBackend = true
        case .return_cache_data_else_load: fetchFromBackend = false
        case .return_cache_data_if_not_expired_else_load:
            throw WireError.wrongParam("fetch_policy", "get_profile takes reload_revalidating_cache_data or return_cache_data_else_load")
        }
        (loadTimeout, clampedLoadTimeout) = try PlacementRequest.loadTimeout(params)
    }
}
