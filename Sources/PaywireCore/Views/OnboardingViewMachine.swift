import PaywireModel
import PaywireWire

/// What an onboarding page's message leads to, in order: keep an answer, emit an event,
/// record an email on the profile, open a paywall.
enum OnboardingAction: Sendable {
    case recordAnswer(OnboardingStateUpdate, OnboardingMeta)
    case emit(OnboardingViewEvent)
    case recordEmail(String)
    /// Serve the placement `actionId` names, create its paywall view, and report both.
    case openPaywall(actionId: String, OnboardingMeta)
}

/// One onboarding view and the rules for the messages its page sends: both dialects come in as
/// one parsed `OnboardingMessage`, and one canonical event goes out. Pure: it returns actions.
struct OnboardingViewMachine: Sendable {
    let info: ViewInfo
    let onboarding: OnboardingReference
    /// Paywall actions open the paywall they name (else the host handles them).
    let opensPaywalls: Bool
    /// The locale paywalls opened from this onboarding are requested in.
    let locale: String?

    /// The actions a message leads to. A message for another onboarding is refused.
    func receive(_ message: OnboardingMessage) throws(WireError) -> [OnboardingAction] {
        guard message.meta.onboardingId == onboarding.onboardingId else {
            throw OnboardingMessage.error("meta.onboarding_id",
                "'\(message.meta.onboardingId)' is not this view's onboarding '\(onboarding.onboardingId)'")
        }
        switch message {
        case .custom(let actionId, let meta):
            return [.emit(.customAction(actionId: actionId, meta))]
        case .close(let actionId, let meta):
            return [.emit(.closeAction(actionId: actionId, meta))]
        case .finishedLoading(let meta):
            return [.emit(.finishedLoading(meta))]
        case .analytics(let event, let meta):
            return [.emit(.analytics(event, meta))]
        case .stateUpdated(let update, let meta):
            // The answer is kept before it is announced: an answer that could not be kept is
            // never reported as given.
            var actions: [OnboardingAction] = [.recordAnswer(update, meta), .emit(.stateUpdated(update, meta))]
            if let email = update.email, onboarding.recordEmailOnProfile { actions.append(.recordEmail(email)) }
            return actions
        case .openPaywall(let actionId, let meta):
            return opensPaywalls ? [.openPaywall(actionId: actionId, meta)] : [.emit(.paywallAction(actionId: actionId, meta, opened: nil))]
        }
    }
}

#if DEBUG
// Tests compare these; the release library never does and leaves their == out (20 KB in all).
extension OnboardingAction: Equatable {}
#endif
