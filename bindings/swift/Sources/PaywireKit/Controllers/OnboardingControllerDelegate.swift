/// A custom button of the onboarding (`action.actionId`, `action.meta`).
public typealias OnboardingCustomAction = OnboardingOnCustomActionEvent
/// The onboarding's close button.
public typealias OnboardingCloseAction = OnboardingOnCloseActionEvent
/// A button that opens a paywall: `action.actionId` (best made the placement id); with
/// `openPaywall` set on the controller, the paywall and its view too (`paywall`, `paywallView`,
/// or `paywallError`).
public typealias OnboardingOpenPaywallAction = OnboardingOnPaywallActionEvent
/// An answer to a quiz, an input, a date (`action.elementId`, `action.params`).
public typealias OnboardingStateUpdatedAction = OnboardingOnStateUpdatedActionEvent
/// The onboarding finished loading.
public typealias OnboardingDidFinishLoadingAction = OnboardingDidFinishLoadingEvent
/// An analytics event of the onboarding's flow (`event.analyticsEvent.name`, `event.meta`).
public typealias OnboardingAnalyticsEvent = OnboardingOnAnalyticsActionEvent

extension OnboardingOnStateUpdatedActionEvent {
    /// The input element's id, as the seed's `action.elementId`.
    public var elementId: String { action.elementId }
    /// The kind of input (`select`, `multi_select`, `input`, `date_picker`) and its value.
    public var params: OnboardingStateAction { action }
}

/// Hears an onboarding's web view, with the seed's methods (`AdaptyOnboardingControllerDelegate`).
/// `didFailWithError` is required; the others are optional (default: nothing).
///
/// Called on the main actor, one at a time, in the order of the core's events for the view. An
/// ``OnboardingController`` holds its delegate strongly.
@MainActor
public protocol OnboardingControllerDelegate: AnyObject {
    /// A custom action (`actionId` set in the builder).
    func onboardingController(_ controller: OnboardingController, onCustomAction action: OnboardingCustomAction)
    /// The close action: stop showing the onboarding.
    func onboardingController(_ controller: OnboardingController, onCloseAction action: OnboardingCloseAction)
    /// A paywall action.
    func onboardingController(_ controller: OnboardingController, onPaywallAction action: OnboardingOpenPaywallAction)
    /// A field's state changed.
    func onboardingController(_ controller: OnboardingController, onStateUpdatedAction action: OnboardingStateUpdatedAction)
    /// The onboarding finished loading.
    func onboardingController(_ controller: OnboardingController, didFinishLoading action: OnboardingDidFinishLoadingAction)
    /// An analytics event (`onboarding_started`, `screen_presented`, ... or one the core does not know).
    func onboardingController(_ controller: OnboardingController, onAnalyticsEvent event: OnboardingAnalyticsEvent)
    /// The onboarding failed: a message the page sent that is not valid, the app's report, or an
    /// action the core refused.
    func onboardingController(_ controller: OnboardingController, didFailWithError error: PaywireError)
}

extension OnboardingControllerDelegate {
    public func onboardingController(_ controller: OnboardingController, onCustomAction action: OnboardingCustomAction) {}
    public func onboardingController(_ controller: OnboardingController, onCloseAction action: OnboardingCloseAction) {}
    public func onboardingController(_ controller: OnboardingController, onPaywallAction action: OnboardingOpenPaywallAction) {}
    public func onboardingController(_ controller: OnboardingController, onStateUpdatedAction action: OnboardingStateUpdatedAction) {}
    public func onboardingController(_ controller: OnboardingController, didFinishLoading action: OnboardingDidFinishLoadingAction) {}
    public func onboardingController(_ controller: OnboardingController, onAnalyticsEvent event: OnboardingAnalyticsEvent) {}
}
