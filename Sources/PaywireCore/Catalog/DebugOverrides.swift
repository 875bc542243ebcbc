import PaywireModel
import PaywireWire

/// The variations a tester forces (`set_debug_overrides {placements: {placement_id:
/// variation_id}}`): a placement named here serves that variation, audience rules and bucketing
/// skipped, and its exposures are recorded as `forced`. Accepted only when the client's config
/// says `debug: true`; held in memory for the client's life, never stored.
final class DebugOverrides {
    private let enabled: Bool
    private var variations: [String: String] = [:]

    init(enabled: Bool) { self.enabled = enabled }

    /// Replaces every override (an empty map clears them).
    func replace(_ overrides: [String: String]) throws(WireError) {
        guard enabled else {
            throw WireError(.invalidState, "set_debug_overrides needs a client created with debug: true in its config",
                            details: JSONObject([("field", .string("debug"))]))
        }
        variations = overrides
    }

    /// The choice a paywall request makes in `placementId`: the forced variation when the
    /// request chooses by audience and an override names the placement.
    func choice(in placementId: String, _ requested: PaywallChoice) -> PaywallChoice {
        guard requested == .byAudience, let variationId = variations[placementId] else { return requested }
        return .forced(variationId: variationId)
    }
}

/// `set_debug_overrides` params: `{placements: {<placement_id>: <variation_id>}}`.
struct DebugOverridesRequest: Sendable {
    let placements: [String: String]

    init(_ params: Fields) throws(WireError) {
        let placements = try params.object("placements")
        var overrides: [String: String] = [:]
        for member in placements.object.members {
            guard !member.key.isEmpty else { throw WireError.wrongParam(placements.path, "a placement id must not be empty") }
            overrides[member.key] = try placements.identifier(member.key)
        }
        self.placements = overrides
    }
}
