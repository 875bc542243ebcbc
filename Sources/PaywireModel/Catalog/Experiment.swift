import PaywireWire

/// One A/B test of a placement's audience, as the backend reads results: its name, its
/// audience version, and its variations' weights in the bundle's order.
public struct Experiment: Sendable {
    public let abTestName: String
    public let placementAudienceVersionId: String
    /// (variation_id, weight) in the bundle's order.
    public let variations: [(variationId: String, weight: Int)]
    /// The variations that are holdouts (shown nothing; their profiles measure the paywall
    /// against none): their exposures are recorded with `holdout: true`.
    public var holdoutVariationIds: Set<String> = []

    /// The A/B tests of every paywall placement of a bundle, by placement id, one per audience
    /// in the bundle's order (an ab_test_name shared by two audiences is listed once, first).
    public static func all(inBundle bytes: [UInt8]) throws(WireError) -> [String: [Experiment]] {
        let bundle = try FallbackBundle.load(bytes)
        var result: [String: [Experiment]] = [:]
        for id in bundle.paywalls.ids {
            guard let placement = try bundle.paywalls.placement(id) else { continue }
            var seen = Set<String>()
            var experiments: [Experiment] = []
            for audience in placement.audiences where seen.insert(audience.abTestName).inserted {
                var experiment = Experiment(
                    abTestName: audience.abTestName,
                    placementAudienceVersionId: audience.placementAudienceVersionId,
                    variations: audience.variations.map { ($0.variationId, $0.weight) })
                experiment.holdoutVariationIds = Set(audience.variations.filter { $0.holdout }.map { $0.variationId })
                experiments.append(experiment)
            }
            result[id] = experiments
        }
        return result
    }
}
