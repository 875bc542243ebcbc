/// Hears what happens on a paywall the app draws, with the seeds' methods and labels
/// (`AdaptyPaywallControllerDelegate`): required where the seed marks them required
/// (`didFailPurchase`, `didFinishRestoreWith`, `didFailRestoreWith`, `didFailRenderingWith`),
/// optional with a default implementation otherwise; plus the AppDNA seed's promo code,
/// post-purchase deep link and next step, all three optional.
///
/// Every method is called on the main actor, one at a time, in the order of the library's
/// events for the controller's view. A ``PaywallController`` holds its delegate strongly (a
/// delegate made inline stays alive); a delegate that holds its controller should let it go when
/// the screen closes.
@MainActor
public protocol PaywallControllerDelegate: AnyObject {
    // MARK: required

    /// A purchase failed (`purchase_failed`, `billing_unavailable`, a purchase already in flight, ...).
    func paywallController(_ controller: PaywallController, didFailPurchase product: PaywallProduct, error: PaywireError)
    /// A restore finished: the profile with the access it grants.
    func paywallController(_ controller: PaywallController, didFinishRestoreWith profile: Profile)
    /// A restore failed.
    func paywallController(_ controller: PaywallController, didFailRestoreWith error: PaywireError)
    /// The paywall cannot be shown: its layout is invalid, the app reported a rendering failure,
    /// or the view could not be created or refused an action.
    func paywallController(_ controller: PaywallController, didFailRenderingWith error: PaywireError)

    // MARK: optional

    /// The paywall appeared (after ``PaywallController/didAppear()``).
    func paywallControllerDidAppear(_ controller: PaywallController)
    /// The paywall disappeared.
    func paywallControllerDidDisappear(_ controller: PaywallController)
    /// The view was dismissed, and why (`dismissed`, `purchased`, `restore_success`, ...).
    func paywallController(_ controller: PaywallController, didDismissWith reason: DismissReason)
    /// A button other than purchase and restore: close, a link, a custom action.
    func paywallController(_ controller: PaywallController, didPerform action: PaywallAction)
    /// A product was selected (by the user or by the system).
    func paywallController(_ controller: PaywallController, didSelectProduct product: PaywallProduct)
    /// A purchase started.
    func paywallController(_ controller: PaywallController, didStartPurchase product: PaywallProduct)
    /// A purchase finished: bought, cancelled by the user (a result, not an error), or pending.
    func paywallController(_ controller: PaywallController, didFinishPurchase product: PaywallProduct,
                           purchaseResult: PurchaseResult)
    /// The core asks the app to open the product's web payment page; answer whether it did.
    /// The default opens nothing (false).
    func paywallController(_ controller: PaywallController, shouldContinueWebPaymentNavigation product: PaywallProduct) -> Bool
    /// A web payment navigation ended (`error` set when it failed).
    func paywallController(_ controller: PaywallController, didFinishWebPaymentNavigation product: PaywallProduct?,
                           error: PaywireError?)
    /// A web payment navigation failed (called after `didFinishWebPaymentNavigation`, as the seed has both).
    func paywallController(_ controller: PaywallController, didFailWebPaymentNavigation product: PaywallProduct,
                           error: PaywireError)
    /// A restore started.
    func paywallControllerDidStartRestore(_ controller: PaywallController)
    /// Loading the products failed; return true to try again after the configured delay
    /// (`products_retry_delay_ms`, 2 s by default). The default is false.
    func paywallController(_ controller: PaywallController, didFailLoadingProductsWith error: PaywireError) -> Bool
    /// Some of the paywall's products could not be loaded: their ids.
    func paywallController(_ controller: PaywallController, didPartiallyLoadProducts failedIds: [String])
    /// A promo code was entered (``PaywallController/submitPromoCode(_:)``): validate it against
    /// your backend. The default accepts none (false).
    func paywallController(_ controller: PaywallController, onPromoCodeSubmit code: String) async -> Bool
    /// After a successful purchase the paywall names a deep link to open.
    func paywallController(_ controller: PaywallController, onPostPurchaseDeepLink url: String)
    /// After a successful purchase the paywall names the next step of the app's flow.
    func paywallController(_ controller: PaywallController, onPostPurchaseNextStep stepId: String)
}

extension PaywallControllerDelegate {
    public func paywallControllerDidAppear(_ controller: PaywallController) {}
    public func paywallControllerDidDisappear(_ controller: PaywallController) {}
    public func paywallController(_ controller: PaywallController, didDismissWith reason: DismissReason) {}
    public func paywallController(_ controller: PaywallController, didPerform action: PaywallAction) {}
    public func paywallController(_ controller: PaywallController, didSelectProduct product: PaywallProduct) {}
    public func paywallController(_ controller: PaywallController, didStartPurchase product: PaywallProduct) {}
    public func paywallController(_ controller: PaywallController, didFinishPurchase product: PaywallProduct,
                                  purchaseResult: PurchaseResult) {}
    public func paywallController(_ controller: PaywallController, shouldContinueWebPaymentNavigation product: PaywallProduct) -> Bool {
        false
    }
    public func paywallController(_ controller: PaywallController, didFinishWebPaymentNavigation product: PaywallProduct?,
                                  error: PaywireError?) {}
    public func paywallController(_ controller: PaywallController, didFailWebPaymentNavigation product: PaywallProduct,
                                  error: PaywireError) {}
    public func paywallControllerDidStartRestore(_ controller: PaywallController) {}
    public func paywallController(_ controller: PaywallController, didFailLoadingProductsWith error: PaywireError) -> Bool {
        false
    }
    public func paywallController(_ controller: PaywallController, didPartiallyLoadProducts failedIds: [String]) {}
    public func paywallController(_ controller: PaywallController, onPromoCodeSubmit code: String) async -> Bool { false }
    public func paywallController(_ controller: PaywallController, onPostPurchaseDeepLink url: String) {}
    public func paywallController(_ controller: PaywallController, onPostPurchaseNextStep stepId: String) {}
}
