import PaywireWire

/// Deterministic A/B bucketing: the same profile gets the same variation on every platform,
/// online or offline.
///
/// Variations are sorted by `(weight, variation_id)`; the bucket is
/// `md5("<placement_audience_version_id>-<profile_id>")`'s last 8 bytes read as an unsigned
/// big-endian integer, mod 100; the first variation whose cumulative weight exceeds the bucket wins.
package enum VariationChooser {
    /// The bucket in 0..<100 for a profile in an audience version.
    package static func bucket(placementAudienceVersionId: String, profileId: String) -> Int {
        let digest = MD5.digest(Array("\(placementAudienceVersionId)-\(profileId)".utf8))
        var value: UInt64 = 0
        for byte in digest.suffix(8) { value = value << 8 | UInt64(byte) }
        return Int(value % 100)
    }

    /// The chosen variation; `variations` must be non-empty with weights summing to 100
    /// (the placement's loader checks both).
    package static func choose<V: WeightedVariation>(_ variations: [V], placementAudienceVersionId: String, profileId: String) -> V? {
        let sorted = variations.sorted { ($0.weight, $0.variationId) < ($1.weight, $1.variationId) }
        let target = bucket(placementAudienceVersionId: placementAudienceVersionId, profileId: profileId)
        var cumulative = 0
        for variation in sorted {
            cumulative += variation.weight
            if target < cumulative { return variation }
        }
        return sorted.last
    }
}
