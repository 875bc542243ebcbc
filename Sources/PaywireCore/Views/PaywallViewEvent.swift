import PaywireModel
import PaywireWire

/// The events of a paywall view: one case per event, and the one writer of each name and
/// payload. Every event carries `view`.
enum PaywallViewEvent: Sendable {
    /// How a purchase that did not fail ended.
    enum PurchaseResult: String, WireEnum, Equatable, Sendable {
        /// Carries the profile as it stands after the grant.
        case success
        case user_cancelled
        case pending
    }

    case didAppear
    case didDisappear
    case didDismiss(DismissReason)
    /// `product` only when the store describes it.
    case didSelectProduct(productId: String, product: ViewProduct?)
    case didPerformAction(ViewAction)
    case didFailRendering(WireError)
    case didFailLoadingProducts(WireError)
    case didPartiallyLoadProducts(failedProductIds: [String])
    case didStartPurchase(ViewProduct)
    /// `transaction` when the store reported one: results carry `{transaction_id, product_id}`.
    case didFinishPurchase(ViewProduct, PurchaseResult, transaction: StoreTransaction?)
    case didFailPurchase(ViewProduct, WireError)
    case didStartRestore
    /// Carries the profile as it stands after the restore was settled, and what was restored.
    case didFinishRestore(restoredProductIds: [String])
    case didFailRestore(WireError)
    case didRequestDeepLink(url: String)
    case didRequestNextStep(stepId: String)
    case didValidatePromoCode(code: String, valid: Bool, error: WireError?)
    case didFinishWebPaymentNavigation(ViewProduct, error: WireError?)

    var name: String {
        switch self {
        case .didAppear: return "paywall_view_did_appear"
        case .didDisappear: return "paywall_view_did_disappear"
        case .didDismiss: return "paywall_view_did_dismiss"
        case .didSelectProduct: return "paywall_view_did_select_product"
        case .didPerformAction: return "paywall_view_did_perform_action"
        case .didFailRendering: return "paywall_view_did_fail_rendering"
        case .didFailLoadingProducts: return "paywall_view_did_fail_loading_products"
        case .didPartiallyLoadProducts: return "paywall_view_did_partially_load_products"
        case .didStartPurchase: return "paywall_view_did_start_purchase"
        case .didFinishPurchase: return "paywall_view_did_finish_purchase"
        case .didFailPurchase: return "paywall_view_did_fail_purchase"
        case .didStartRestore: return "paywall_view_did_start_restore"
        case .didFinishRestore: return "paywall_view_did_finish_restore"
        case .didFailRestore: return "paywall_view_did_fail_restore"
        case .didRequestDeepLink: return "paywall_view_did_request_deep_link"
        case .didRequestNextStep: return "paywall_view_did_request_next_step"
        case .didValidatePromoCode: return "paywall_view_did_validate_promo_code"
        case .didFinishWebPaymentNavigation: return "paywall_view_did_finish_web_payment_navigation"
        }
    }

    /// The wire event for `view`; `profile` (judged at `now`) is written by the events that
    /// carry it.
    func event(view: ViewInfo, profile: Profile, now: WideInt) -> Event {
        Event(name) { writer in
            writer.key("view")
            view.write(to: &writer)
            writePayload(to: &writer, profile: profile, now: now)
        }
    }

    private func writePayload(to writer: inout JSONWriter, profile: Profile, now: WideInt) {
        switch self {
        case .didAppear, .didDisappear, .didStartRestore:
            break
        case .didDismiss(let reason):
            writer.member("reason", reason.rawValue)
        case .didSelectProduct(let productId, let product):
            writer.member("product_id", productId)
            if let product { PaywallViewEvent.write(product, to: &writer) }
        case .didPerformAction(let action):
            writer.key("action")
            action.write(to: &writer)
        case .didFailRendering(let error), .didFailLoadingProducts(let error), .didFailRestore(let error):
            PaywallViewEvent.write(error, to: &writer)
        case .didPartiallyLoadProducts(let ids):
            writer.key("failed_product_ids")
            writer.array { writer in for id in ids { writer.string(id) } }
        case .didStartPurchase(let product):
            PaywallViewEvent.write(product, to: &writer)
        case .didFinishPurchase(let product, let result, let transaction):
            PaywallViewEvent.write(product, to: &writer)
            writer.key("purchase_result")
            writer.object { writer in
                writer.member("type", result.rawValue)
                if result == .success {
                    writer.key("profile")
                    profile.write(to: &writer, now: now)
                }
                if let transaction {
                    writer.key("transaction")
                    transaction.writeSummary(to: &writer)
                }
            }
        case .didFailPurchase(let product, let error):
            PaywallViewEvent.write(product, to: &writer)
            PaywallViewEvent.write(error, to: &writer)
        case .didFinishRestore(let restored):
            writer.key("profile")
            profile.write(to: &writer, now: now)
            writer.key("restored_product_ids")
            writer.array { writer in for id in restored { writer.string(id) } }
        case .didRequestDeepLink(let url):
            writer.member("url", url)
        case .didRequestNextStep(let stepId):
            writer.member("step_id", stepId)
        case .didValidatePromoCode(let code, let valid, let error):
            writer.member("code", code)
            writer.member("valid", valid)
            if let error { PaywallViewEvent.write(error, to: &writer) }
        case .didFinishWebPaymentNavigation(let product, let error):
            PaywallViewEvent.write(product, to: &writer)
            if let error { PaywallViewEvent.write(error, to: &writer) }
        }
    }

    private static func write(_ product: ViewProduct, to writer: inout JSONWriter) {
        writer.key("product")
        product.write(to: &writer)
    }

    private static func write(_ error: WireError, to writer: inout JSONWriter) {
        writer.key("error")
        error.write(to: &writer)
    }
}

#if DEBUG
// Tests compare these; the release library never does and leaves their == out (20 KB in all).
extension PaywallViewEvent: Equatable {}
#endif
