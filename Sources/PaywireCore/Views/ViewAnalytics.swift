import PaywireModel
import PaywireWire

/// Where the view events that are also analytics go (the outbox). The views say what
/// happened; what of it is recorded, and how, is the outbox's rule.
protocol ViewAnalytics: AnyObject {
    func paywallView(_ event: PaywallViewEvent, view: ViewInfo)
    func onboardingView(_ event: OnboardingViewEvent, view: ViewInfo)
    /// The host created an onboarding view to show it: the onboarding's exposure.
    func onboardingShown(_ view: ViewInfo, onboarding: OnboardingReference)
}
