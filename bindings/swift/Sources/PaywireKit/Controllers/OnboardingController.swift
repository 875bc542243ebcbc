/// An onboarding's web view as the core sees it: the app passes each message the page posts to
/// ``ingest(message:type:)`` (either dialect: snake_case or camelCase, an object or JSON text) and
/// the ``delegate`` hears what it meant, with the seed's methods.
///
/// Made by ``PaywireClient/onboardingController(for:openPaywall:locale:delegate:)``, which creates
/// the core's view (`create_onboarding_view`) before it returns. Lives on the main actor; so do
/// its delegate's calls. Like ``PaywallController``'s actions, ``ingest(message:type:)`` and
/// ``reportError(_:underlyingError:)`` are synchronous and non-throwing: each returns once the
/// core has taken the message and every delegate call of the events it emitted meanwhile has been
/// made, in order; what comes later (a paywall fetched for `openPaywall`) reaches the delegate on
/// the main actor as it arrives.
@MainActor
public final class OnboardingController {
    /// The client the view belongs to.
    public let client: PaywireClient
    /// The onboarding shown.
    public let onboarding: Onboarding
    /// Hears the view's events; held strongly.
    public var delegate: (any OnboardingControllerDelegate)?
    let session: ViewSession

    init(client: PaywireClient, onboarding: Onboarding, openPaywall: Bool?, locale: String?,
         delegate: (any OnboardingControllerDelegate)?)
    {
        self.client = client
        self.onboarding = onboarding
        self.delegate = delegate
        session = ViewSession(core: client.core)
        let params = CreateOnboardingViewParams(onboarding: onboarding, openPaywall: openPaywall, locale: locale)
        session.create("create_onboarding_view", params.jsonValue, target: { [weak self] in self?.handle($0) },
                       failed: { [weak self] in self?.failed($0) })
    }

    /// The core's view; nil when the core could not create it (the delegate hears `didFailWithError`).
    public var view: ViewInfo? { session.view }

    /// A message the page posted, as JSON text (`onboarding_view_ingest`). `type` names its kind
    /// when the message does not carry one.
    @discardableResult
    public func ingest(message: String, type: OnboardingMessageType? = nil) -> OnboardingViewIngestResult? {
        ingest(.string(message), type: type)
    }

    /// A message the page posted, as an object.
    @discardableResult
    public func ingest(message: JSONObject, type: OnboardingMessageType? = nil) -> OnboardingViewIngestResult? {
        ingest(.object(message), type: type)
    }

    /// The app's web view failed (`onboarding_view_report_error`): `didFailWithError`.
    public func reportError(_ message: String, underlyingError: String? = nil) {
        let outcome = session.send("onboarding_view_report_error") {
            OnboardingViewReportErrorParams(viewId: $0, message: message, underlyingError: underlyingError).jsonValue
        }
        if case .failure(let error) = outcome { failed(error) }
    }

    /// The core's answer: `accepted`, or the error saying why the message was not (the delegate
    /// hears `didFailWithError` too when the core reports it as an event). nil when the call was
    /// refused, which the delegate hears.
    private func ingest(_ message: JSONValue, type: OnboardingMessageType?) -> OnboardingViewIngestResult? {
        let outcome = session.send("onboarding_view_ingest") {
            OnboardingViewIngestParams(viewId: $0, message: message, type: type).jsonValue
        }
        do {
            return try OnboardingViewIngestResult(json: outcome.get())
        } catch let error as PaywireError {
            failed(error)
        } catch {
            failed(.binding(.decodingFailed, "\(error)"))
        }
        return nil
    }

    private func failed(_ error: PaywireError) {
        delegate?.onboardingController(self, didFailWithError: error)
    }

    func handle(_ event: PaywireEvent) {
        guard let delegate else { return }
        switch event {
        case .onboardingOnCustomAction(let action): delegate.onboardingController(self, onCustomAction: action)
        case .onboardingOnCloseAction(let action): delegate.onboardingController(self, onCloseAction: action)
        case .onboardingOnPaywallAction(let action): delegate.onboardingController(self, onPaywallAction: action)
        case .onboardingOnStateUpdatedAction(let action): delegate.onboardingController(self, onStateUpdatedAction: action)
        case .onboardingDidFinishLoading(let action): delegate.onboardingController(self, didFinishLoading: action)
        case .onboardingOnAnalyticsAction(let event): delegate.onboardingController(self, onAnalyticsEvent: event)
        case .onboardingDidFailWithError(let failed): delegate.onboardingController(self, didFailWithError: failed.error)
        default: break
        }
    }
}
