/// A paywall the app draws itself, as the core sees it: the app's UI reports what the user did
/// (``didAppear()``, ``select(product:)``, ``purchase(product:)``, ``restore()``, ...), the core
/// decides what it means, and the ``delegate`` hears the outcome with the seeds' methods.
///
/// Made by ``PaywireClient/paywallController(for:products:context:delegate:)``, which creates the
/// core's view (`create_paywall_view`) before it returns. Lives on the main actor; so do its
/// delegate's calls.
///
/// Every action is a synchronous, non-throwing call on the main actor, as a UIKit or SwiftUI
/// action is (writing `await` before one, from main-actor code, only draws a warning). It
/// returns once the core has taken the action and every delegate call caused by the events the
/// core emitted while taking it has been made, in event order: with the test store that is the
/// whole flow (`controller.purchase(product:)` returns after `didStartPurchase` and
/// `didFinishPurchase`). What comes later (a ``PaywireStore``'s answer, a test store outcome
/// with `delay_ms`, a timer) reaches the delegate on the main actor as it arrives, in the same
/// order. A delegate method may call another action: that action's delegate calls are made
/// before it returns, still in order. An action the core refuses (a purchase already in flight,
/// a dismissed view, a closed client) is reported to the delegate before the action returns: a
/// purchase's as `didFailPurchase`, a restore's as `didFailRestoreWith`, a web payment's as
/// `didFailWebPaymentNavigation`, the others as `didFailRenderingWith`.
@MainActor
public final class PaywallController {
    /// The client the view belongs to.
    public let client: PaywireClient
    /// The paywall shown.
    public let paywall: Paywall
    /// The products the app shows, by id: the delegate gets these values back.
    public private(set) var products: [PaywallProduct]
    /// Hears the view's events; held strongly (see ``PaywallControllerDelegate``).
    public var delegate: (any PaywallControllerDelegate)?
    let session: ViewSession

    init(client: PaywireClient, paywall: Paywall, products: [PaywallProduct]?, context: PaywallContext?,
         delegate: (any PaywallControllerDelegate)?)
    {
        self.client = client
        self.paywall = paywall
        self.products = products ?? []
        self.delegate = delegate
        session = ViewSession(core: client.core)
        // Without products the core loads them with the view, and says when that fails.
        let params = CreatePaywallViewParams(paywall: paywall, preloadProducts: products == nil ? true : nil, context: context)
        session.create("create_paywall_view", params.jsonValue, target: { [weak self] in self?.handle($0) },
                       failed: { [weak self] in self?.renderingFailure($0) })
    }

    /// The core's view (its id and analytics context); nil when the core could not create it
    /// (the delegate hears `didFailRenderingWith`).
    public var view: ViewInfo? { session.view }

    /// The paywall is on screen (`present_paywall_view`): records the exposure; the delegate
    /// hears `paywallControllerDidAppear`.
    public func didAppear() {
        send("present_paywall_view", failure: renderingFailure) { PresentPaywallViewParams(viewId: $0).jsonValue }
    }

    /// The user selected a product (`paywall_view_select_product`): `didSelectProduct`.
    public func select(product: PaywallProduct) {
        remember(product)
        send("paywall_view_select_product", failure: renderingFailure) {
            PaywallViewSelectProductParams(viewId: $0, productId: product.vendorProductId).jsonValue
        }
    }

    /// The user tapped buy (`paywall_view_make_purchase`): `didStartPurchase`, then
    /// `didFinishPurchase` (bought, cancelled or pending) or `didFailPurchase`.
    public func purchase(product: PaywallProduct) {
        remember(product)
        send("paywall_view_make_purchase", failure: { [weak self] error in
            guard let self else { return }
            self.delegate?.paywallController(self, didFailPurchase: product, error: error)
        }) {
            PaywallViewMakePurchaseParams(viewId: $0, productId: product.vendorProductId).jsonValue
        }
    }

    /// The user tapped restore (`paywall_view_restore`): `paywallControllerDidStartRestore`, then
    /// `didFinishRestoreWith` or `didFailRestoreWith`.
    public func restore() {
        send("paywall_view_restore", failure: { [weak self] error in
            guard let self else { return }
            self.delegate?.paywallController(self, didFailRestoreWith: error)
        }) {
            PaywallViewRestoreParams(viewId: $0).jsonValue
        }
    }

    /// Another button (`paywall_view_perform_action`): `didPerform`; `close` and `systemBack`
    /// also dismiss the view.
    public func perform(action: PaywallAction) {
        send("paywall_view_perform_action", failure: renderingFailure) {
            PaywallViewPerformActionParams(viewId: $0, action: action.viewAction).jsonValue
        }
    }

    /// The user entered a promo code (`paywall_view_submit_promo_code`): the delegate's
    /// `onPromoCodeSubmit` validates it.
    public func submitPromoCode(_ code: String) {
        send("paywall_view_submit_promo_code", failure: renderingFailure) {
            PaywallViewSubmitPromoCodeParams(viewId: $0, code: code).jsonValue
        }
    }

    /// The user chose to pay on the web (`paywall_view_open_web_payment`): the delegate's
    /// `shouldContinueWebPaymentNavigation` opens the page, then `didFinishWebPaymentNavigation`.
    public func openWebPayment(product: PaywallProduct) {
        remember(product)
        send("paywall_view_open_web_payment", failure: { [weak self] error in
            guard let self else { return }
            self.delegate?.paywallController(self, didFailWebPaymentNavigation: product, error: error)
        }) {
            PaywallViewOpenWebPaymentParams(viewId: $0, productId: product.vendorProductId).jsonValue
        }
    }

    /// The app could not draw the paywall (`paywall_view_report_rendering_failure`): `didFailRenderingWith`.
    public func reportRenderingFailure(_ message: String, underlyingError: String? = nil) {
        send("paywall_view_report_rendering_failure", failure: renderingFailure) {
            PaywallViewReportRenderingFailureParams(viewId: $0, message: message, underlyingError: underlyingError).jsonValue
        }
    }

    /// The app could not draw the paywall, for this error.
    public func reportRenderingFailure(_ error: any Error) {
        reportRenderingFailure("\(error)", underlyingError: String(reflecting: type(of: error)))
    }

    /// The paywall left the screen (`dismiss_paywall_view`): `paywallControllerDidDisappear`, then
    /// `didDismissWith`. A dismissed view refuses further actions.
    public func didDisappear(reason: DismissReason = .dismissed) {
        send("dismiss_paywall_view", failure: renderingFailure) {
            DismissPaywallViewParams(viewId: $0, reason: reason).jsonValue
        }
    }

    /// The builder layout to draw (`paywall_view_get_configuration`), each plan with its price,
    /// period and saving.
    public func layout() throws -> PaywallLayout {
        let json = try session.fetch("paywall_view_get_configuration") { PaywallViewGetConfigurationParams(viewId: $0).jsonValue }
        do {
            return try PaywallLayout(json: json)
        } catch {
            throw PaywireError.binding(.decodingFailed, "the paywall's layout does not have the schema's shape: \(error)")
        }
    }

    // MARK: -

    private func send(_ method: String, failure: (PaywireError) -> Void, _ params: (String) -> JSONValue) {
        if case .failure(let error) = session.send(method, params) { failure(error) }
    }

    private func renderingFailure(_ error: PaywireError) {
        delegate?.paywallController(self, didFailRenderingWith: error)
    }

    private func remember(_ product: PaywallProduct) {
        if let index = products.firstIndex(where: { $0.vendorProductId == product.vendorProductId }) {
            products[index] = product
        } else {
            products.append(product)
        }
    }

    /// The product an event names: the app's own value when it gave one, else the event's when
    /// the store described it in full.
    func product(_ id: String, described: JSONValue?) -> PaywallProduct? {
        if let known = products.first(where: { $0.vendorProductId == id }) { return known }
        return described.flatMap { try? PaywallProduct(json: $0) }
    }
}
