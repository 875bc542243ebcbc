import PaywireModel
import PaywireWire

/// The events of an onboarding view, one case per event, and the one writer of each name and
/// payload. Every event carries `view`; those from a page message also carry its `meta`.
enum OnboardingViewEvent: Sendable {
    /// What came of a paywall action on a view created with `open_paywall`.
    enum OpenedPaywall: Sendable {
        /// The view created for the paywall, and the paywall (encoded as served).
        case opened(ViewInfo, paywall: [UInt8])
        case failed(WireError)
    }

    case customAction(actionId: String, OnboardingMeta)
    case closeAction(actionId: String, OnboardingMeta)
    case finishedLoading(OnboardingMeta)
    case analytics(OnboardingAnalyticsEvent, OnboardingMeta)
    case stateUpdated(OnboardingStateUpdate, OnboardingMeta)
    /// `opened` is nil when the view leaves paywalls to the host.
    case paywallAction(actionId: String, OnboardingMeta, opened: OpenedPaywall?)
    /// A message that could not be understood; the view keeps working.
    case failed(WireError)

    var name: String {
        switch self {
        case .customAction: return "onboarding_on_custom_action"
        case .closeAction: return "onboarding_on_close_action"
        case .finishedLoading: return "onboarding_did_finish_loading"
        case .analytics: return "onboarding_on_analytics_action"
        case .stateUpdated: return "onboarding_on_state_updated_action"
        case .paywallAction: return "onboarding_on_paywall_action"
        case .failed: return "onboarding_did_fail_with_error"
        }
    }

    func event(view: ViewInfo) -> Event {
        Event(name) { writer in
            writer.key("view")
            view.write(to: &writer)
            writePayload(to: &writer)
        }
    }

    private func writePayload(to writer: inout JSONWriter) {
        switch self {
        case .customAction(let actionId, let meta), .closeAction(let actionId, let meta):
            meta.write(to: &writer)
            writer.member("action_id", actionId)
        case .finishedLoading(let meta):
            meta.write(to: &writer)
        case .analytics(let analytics, let meta):
            meta.write(to: &writer)
            // Not "event": that key is the event's name in every event.
            writer.key("analytics_event")
            analytics.write(to: &writer)
        case .stateUpdated(let update, let meta):
            meta.write(to: &writer)
            writer.key("action")
            update.write(to: &writer)
        case .paywallAction(let actionId, let meta, let opened):
            meta.write(to: &writer)
            writer.member("action_id", actionId)
            switch opened {
            case .opened(let view, let paywall)?:
                writer.key("paywall_view")
                view.write(to: &writer)
                writer.key("paywall")
                writer.raw(paywall)
            case .failed(let error)?:
                writer.key("paywall_error")
                error.write(to: &writer)
            case nil:
                break
            }
        case .failed(let error):
            writer.key("error")
            error.write(to: &writer)
        }
    }
}

#if DEBUG
// Tests compare these; the release library never does and leaves their == out (20 KB in all).
extension OnboardingViewEvent: Equatable {}
extension OnboardingViewEvent.OpenedPaywall: Equatable {}
#endif
