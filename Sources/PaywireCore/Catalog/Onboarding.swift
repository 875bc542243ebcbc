/// One A/B variation of an onboarding placement: which onboarding flow a bucket of users sees.
struct OnboardingVariation: WeightedVariation, Equatable {
    let variationId: String
    let onboardingId: String
    let onboardingName: String
    let weight: Int
    let remoteConfigs: [RemoteConfig]
    /// The page the host loads in its web view.
    let url: String
    /// Whether an `input` of type `email` is also recorded on the profile.
    let recordEmailOnProfile: Bool
    let crossPlacementGroup: String?
    var servedPaywallId: String? { nil }

    static func load(_ fields: Fields) throws(WireError) -> OnboardingVariation {
        OnboardingVariation(
            variationId: try fields.identifier("variation_id"),
            onboardingId: try fields.identifier("onboarding_id"),
            onboardingName: try fields.optionalString("onboarding_name") ?? "",
            weight: try fields.int("weight", in: 0...100),
            remoteConfigs: try RemoteConfig.loadAll(fields),
            url: try fields.identifier("url"),
            recordEmailOnProfile: try fields.optionalBool("record_email_on_profile") ?? false,
            crossPlacementGroup: try fields.optionalString("cross_placement_group"))
    }
}

/// An onboarding as served to the host (`#/$defs/onboarding`).
struct Onboarding: Sendable {
    let selection: Selection<OnboardingVariation>

    func write(to writer: inout JSONWriter) {
        let variation = selection.variation
        writer.object { writer in
            selection.writePlacement(to: &writer)
            writer.member("onboarding_id", variation.onboardingId)
            writer.member("onboarding_name", variation.onboardingName)
            writer.member("variation_id", variation.variationId)
            selection.writeRemoteConfig(to: &writer)
            writer.key("view_configuration")
            writer.object { writer in writer.member("url", variation.url) }
            writer.member("record_email_on_profile", variation.recordEmailOnProfile)
            selection.writeVersionAndLocale(to: &writer)
        }
    }
}

/// What `create_onboarding_view` needs from an onboarding the host hands back.
struct OnboardingReference: Equatable, Sendable {
    let placementId: String
    let abTestName: String
    let variationId: String
    let onboardingId: String
    let recordEmailOnProfile: Bool

    init(_ fields: Fields) throws(WireError) {
        let placement = try fields.object("placement")
        placementId = try placement.identifier("developer_id")
        abTestName = try placement.optionalString("ab_test_name") ?? ""
        variationId = try fields.identifier("variation_id")
        onboardingId = try fields.identifier("onboarding_id")
        recordEmailOnProfile = try fields.optionalBool("record_email_on_profile") ?? false
    }
}
