import PaywireWire

/// One A/B variation of an onboarding placement: which onboarding flow a bucket of users sees.
package struct OnboardingVariation: WeightedVariation, Equatable {
    package let variationId: String
    package let onboardingId: String
    package let onboardingName: String
    package let weight: Int
    package let remoteConfigs: [RemoteConfig]
    /// The page the host loads in its web view.
    package let url: String
    /// Whether an `input` of type `email` is also recorded on the profile.
    package let recordEmailOnProfile: Bool
    package let crossPlacementGroup: String?
    package var servedPaywallId: String? { nil }

    package static func load(_ fields: Fields) throws(WireError) -> OnboardingVariation {
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
package struct Onboarding: Sendable {
    package let selection: Selection<OnboardingVariation>
    /// As `Paywall.verification`.
    package let verification: Verification?

    package init(selection: Selection<OnboardingVariation>, verification: Verification? = nil) {
        self.selection = selection
        self.verification = verification
    }

    package func write(to writer: inout JSONWriter) {
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
            if let verification { writer.member("verification", verification.rawValue) }
        }
    }
}

/// What `create_onboarding_view` needs from an onboarding the host hands back.
package struct OnboardingReference: Equatable, Sendable {
    package let placementId: String
    package let abTestName: String
    package let variationId: String
    package let onboardingId: String
    package let recordEmailOnProfile: Bool

    package init(_ fields: Fields) throws(WireError) {
        let placement = try fields.object("placement")
        placementId = try placement.identifier("developer_id")
        abTestName = try placement.optionalString("ab_test_name") ?? ""
        variationId = try fields.identifier("variation_id")
        onboardingId = try fields.identifier("onboarding_id")
        recordEmailOnProfile = try fields.optionalBool("record_email_on_profile") ?? false
    }
}
