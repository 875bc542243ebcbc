import PaywireModel
import PaywireWire

/// An onboarding view's paywall action waiting for its paywall.
struct OnboardingPaywallRequest: Sendable {
    let viewId: String
    let actionId: String
    let meta: OnboardingMeta
}
