import PaywireModel
import PaywireWire

/// What is recorded for the backend, and under which name: the exposures that make an A/B
/// test readable (`paywall_shown`, `onboarding_shown`, kept as attribution records), and the
/// view events that tell what came of them (under the host event's own name). Answers users
/// type in onboardings are not recorded, only which element they answered.
extension Outbox: ViewAnalytics, ExposureRecorder {
    /// An exposure (`log_show_paywall`, or a holdout `get_presentation` decided on); nil when
    /// analytics are disabled (then the exposure is missing from the A/B results:
    /// docs/concepts/outbox.md).
    func paywallShown(_ exposure: Exposure) throws(WireError) -> String? {
        try exposure.validate()
        return try record(Exposure.recordName, kind: .attribution) { writer in exposure.write(to: &writer) }
    }

    func onboardingShown(_ view: ViewInfo, onboarding: OnboardingReference) {
        recordReportingFailure("onboarding_shown", kind: .attribution) { writer in
            Outbox.writeContext(view, to: &writer)
            writer.member("onboarding_id", onboarding.onboardingId)
        }
    }

    func paywallView(_ event: PaywallViewEvent, view: ViewInfo) {
        let detail: ((inout JSONWriter) -> Void)?
        switch event {
        case .didAppear, .didStartRestore, .didFinishRestore:
            detail = { _ in }
        case .didSelectProduct(let productId, _):
            detail = { writer in writer.member("product_id", productId) }
        case .didStartPurchase(let product):
            detail = { writer in writer.member("product_id", product.productId) }
        case .didFinishPurchase(let product, let result, _):
            detail = { writer in
                writer.member("product_id", product.productId)
                writer.member("purchase_result", result.rawValue)
            }
        case .didFailPurchase(let product, let error):
            detail = { writer in
                writer.member("product_id", product.productId)
                writer.member("error_code", error.code.rawValue)
            }
        case .didFailRestore(let error):
            detail = { writer in writer.member("error_code", error.code.rawValue) }
        case .didDismiss(let reason):
            detail = { writer in writer.member("reason", reason.rawValue) }
        default:
            detail = nil
        }
        guard let detail else { return }
        recordReportingFailure(event.name, kind: .analytics) { writer in
            Outbox.writeContext(view, to: &writer)
            detail(&writer)
        }
    }

    func onboardingView(_ event: OnboardingViewEvent, view: ViewInfo) {
        let detail: ((inout JSONWriter) -> Void)?
        switch event {
        case .finishedLoading(let meta):
            detail = { writer in meta.write(to: &writer) }
        case .customAction(let actionId, let meta), .closeAction(let actionId, let meta), .paywallAction(let actionId, let meta, _):
            detail = { writer in
                meta.write(to: &writer)
                writer.member("action_id", actionId)
            }
        case .analytics(let analytics, let meta):
            detail = { writer in
                meta.write(to: &writer)
                writer.key("analytics_event")
                analytics.write(to: &writer)
            }
        case .stateUpdated(let update, let meta):
            detail = { writer in
                meta.write(to: &writer)
                writer.member("element_id", update.elementId)
                writer.member("element_type", update.elementType)
            }
        case .failed:
            detail = nil
        }
        guard let detail else { return }
        recordReportingFailure(event.name, kind: .analytics) { writer in
            Outbox.writeContext(view, to: &writer)
            detail(&writer)
        }
    }

    /// The placement, test and variation a view shows: every view record carries them.
    private static func writeContext(_ view: ViewInfo, to writer: inout JSONWriter) {
        writer.member("view_id", view.id)
        writer.member("placement_id", view.placementId)
        writer.member("ab_test_name", view.abTestName)
        writer.member("variation_id", view.variationId)
    }
}
