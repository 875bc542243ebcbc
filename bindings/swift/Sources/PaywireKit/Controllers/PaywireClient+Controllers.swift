extension PaywireClient {
    /// A controller for a paywall the app draws: it creates the core's view for `paywall` before
    /// it returns, then reports the app's actions; `delegate` hears the outcome on the main actor.
    /// A view the core cannot create is reported to `delegate` (`didFailRenderingWith`) once
    /// this returns, and each action then reports it again.
    ///
    /// - Parameter products: the products the app shows (``getPaywallProducts(paywall:fetchPolicy:)``);
    ///   the delegate gets these values back. Without them the core loads the products with the
    ///   view and the delegate hears `didFailLoadingProductsWith` when that fails.
    /// - Parameter context: analytics context echoed on every event of the view.
    @MainActor
    public func paywallController(for paywall: Paywall, products: [PaywallProduct]? = nil, context: PaywallContext? = nil,
                                  delegate: (any PaywallControllerDelegate)? = nil) -> PaywallController
    {
        PaywallController(client: self, paywall: paywall, products: products, context: context, delegate: delegate)
    }

    /// A controller for an onboarding's web view (``getOnboarding(placementId:locale:fetchPolicy:loadTimeout:maxAge:)``).
    ///
    /// - Parameter openPaywall: with true, a paywall action also fetches the paywall it names
    ///   and creates its view (the action carries them).
    /// - Parameter locale: the locale of paywalls opened from the onboarding; default the client's.
    @MainActor
    public func onboardingController(for onboarding: Onboarding, openPaywall: Bool? = nil, locale: String? = nil,
                                     delegate: (any OnboardingControllerDelegate)? = nil) -> OnboardingController
    {
        OnboardingController(client: self, onboarding: onboarding, openPaywall: openPaywall, locale: locale, delegate: delegate)
    }
}
