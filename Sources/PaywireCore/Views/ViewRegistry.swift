/// Which placement, A/B test and variation a view shows: the analytics context every view
/// event carries, so conversion can be measured per placement and variant.
struct ViewInfo: Equatable, Sendable {
    let id: String
    let placementId: String
    let abTestName: String
    let variationId: String

    /// `"view": {id, placement_id, ab_test_name, variation_id}` (also the result of the create methods).
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("id", id)
            writer.member("placement_id", placementId)
            writer.member("ab_test_name", abTestName)
            writer.member("variation_id", variationId)
        }
    }
}

/// A paywall view and where its flows stand. One purchase and one restore at a time.
struct PaywallViewState: Sendable {
    enum Phase: Sendable { case created, presented, dismissed }

    let info: ViewInfo
    let paywall: PaywallReference
    var phase: Phase = .created
    /// The products as the store described them, once loaded.
    var products: [StoreProduct]?
    var loadingProducts = false
    /// The product being bought, while a purchase is in flight.
    var purchasing: String?
    /// A purchase waiting for the products to load (host store).
    var purchaseAfterLoad: String?
    var restoring = false
    var selectedProductId: String?
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
    var paywallViews: [String: PaywallViewState] = [:]
    private(set) var onboardingViews: [String: OnboardingViewRecord] = [:]
    private var nextPaywallView = 1
    private var nextOnboardingView = 1

    mutating func addPaywallView(_ paywall: PaywallReference) -> PaywallViewState {
        let info = ViewInfo(id: "paywall-view-\(nextPaywallView)", placementId: paywall.placementId,
                            abTestName: paywall.abTestName, variationId: paywall.variationId)
        nextPaywallView += 1
        let state = PaywallViewState(info: info, paywall: paywall)
        paywallViews[info.id] = state
        return state
    }

    mutating func addOnboardingView(_ onboarding: OnboardingReference, openPaywall: Bool, locale: String?) -> OnboardingViewRecord {
        let info = ViewInfo(id: "onboarding-view-\(nextOnboardingView)", placementId: onboarding.placementId,
                            abTestName: onboarding.abTestName, variationId: onboarding.variationId)
        nextOnboardingView += 1
        let record = OnboardingViewRecord(info: info, onboarding: onboarding, openPaywall: openPaywall, locale: locale)
        onboardingViews[info.id] = record
        return record
    }
}
