/// Which placement and variation a view shows: the analytics context every view event carries.
struct ViewInfo: Equatable, Sendable {
    let id: String
    let placementId: String
    let variationId: String

    /// `"view": {id, placement_id, variation_id}` (also the result of the create methods).
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("id", id)
            writer.member("placement_id", placementId)
            writer.member("variation_id", variationId)
        }
    }
}

/// A paywall view the host created.
struct PaywallViewRecord: Sendable {
    let info: ViewInfo
    let paywall: PaywallReference
}

/// An onboarding view the host created, with its view configuration.
struct OnboardingViewRecord: Sendable {
    let info: ViewInfo
    let onboarding: OnboardingReference
    /// Fetch the paywall named by a paywall action and create its view.
    let openPaywall: Bool
    /// The locale paywalls opened from this onboarding are requested in.
    let locale: String?
}

/// The views of one client. Ids are `paywall-view-N` / `onboarding-view-N`, never reused.
struct ViewRegistry: Sendable {
    private(set) var paywallViews: [String: PaywallViewRecord] = [:]
    private(set) var onboardingViews: [String: OnboardingViewRecord] = [:]
    private var nextPaywallView = 1
    private var nextOnboardingView = 1

    mutating func addPaywallView(_ paywall: PaywallReference) -> PaywallViewRecord {
        let info = ViewInfo(id: "paywall-view-\(nextPaywallView)", placementId: paywall.placementId, variationId: paywall.variationId)
        nextPaywallView += 1
        let record = PaywallViewRecord(info: info, paywall: paywall)
        paywallViews[info.id] = record
        return record
    }

    mutating func addOnboardingView(_ onboarding: OnboardingReference, openPaywall: Bool, locale: String?) -> OnboardingViewRecord {
        let info = ViewInfo(id: "onboarding-view-\(nextOnboardingView)", placementId: onboarding.placementId, variationId: onboarding.variationId)
        nextOnboardingView += 1
        let record = OnboardingViewRecord(info: info, onboarding: onboarding, openPaywall: openPaywall, locale: locale)
        onboardingViews[info.id] = record
        return record
    }
}
