import PaywireModel
import PaywireWire

/// The onboarding views of one client: creating them, taking what their pages send, keeping
/// the answers users give. View ids are `onboarding-view-N`, never reused.
final class OnboardingViews {
    private var machines: [String: OnboardingViewMachine] = [:]
    private var nextId = 1
    private let answers: OnboardingAnswers
    private let profiles: ProfileStore
    private let paywallViews: PaywallViews
    private let loader: PlacementLoader
    private let sink: EventSink
    private let analytics: ViewAnalytics

    init(answers: OnboardingAnswers, profiles: ProfileStore, paywallViews: PaywallViews, loader: PlacementLoader,
         sink: EventSink, analytics: ViewAnalytics) {
        self.analytics = analytics
        self.answers = answers
        self.profiles = profiles
        self.paywallViews = paywallViews
        self.loader = loader
        self.sink = sink
    }

    func create(_ onboarding: OnboardingReference, opensPaywalls: Bool, locale: String?) -> ViewInfo {
        let info = ViewInfo(id: "onboarding-view-\(nextId)", placementId: onboarding.placementId,
                            abTestName: onboarding.abTestName, variationId: onboarding.variationId)
        nextId += 1
        machines[info.id] = OnboardingViewMachine(info: info, onboarding: onboarding, opensPaywalls: opensPaywalls,
                                                  locale: locale)
        analytics.onboardingShown(info, onboarding: onboarding)
        return info
    }

    /// The host could not load or render the page: `onboarding_did_fail_with_error`.
    func reportError(_ viewId: String, _ error: WireError) throws(WireError) {
        guard let machine = machines[viewId] else {
            throw WireError(.notFound, "no onboarding view '\(viewId)'", details: JSONObject([("view_id", .string(viewId))]))
        }
        sink.emit(OnboardingViewEvent.failed(error).event(view: machine.info))
    }

    /// The answers the current profile gave in `onboardingId`.
    func state(_ onboardingId: String) throws(WireError) -> CallResponse {
        var writer = JSONWriter()
        try answers.state(profileId: profiles.profileId, onboardingId: onboardingId, to: &writer)
        return .success(writer.bytes)
    }

    /// Takes one message as the page sent it (an object, or the JSON text a web view
    /// delivered). A message that cannot be understood, or whose effects cannot be kept, emits
    /// `onboarding_did_fail_with_error` and answers `{accepted: false, error}`; the view keeps working.
    /// `read` gives the message and its `type`, once the view is known to exist.
    func ingest(_ viewId: String, read: () throws(WireError) -> (message: JSONValue, type: String?)) throws(WireError) -> CallResponse {
        guard let machine = machines[viewId] else {
            throw WireError(.notFound, "no onboarding view '\(viewId)'", details: JSONObject([("view_id", .string(viewId))]))
        }
        let (raw, type) = try read()
        do throws(WireError) {
            let message = try OnboardingMessage.parse(try OnboardingMessage.value(of: raw), type: type)
            try run(try machine.receive(message), on: machine)
            return .success { writer in writer.object { writer in writer.member("accepted", true) } }
        } catch {
            sink.emit(OnboardingViewEvent.failed(error).event(view: machine.info))
            return .success { writer in
                writer.object { writer in
                    writer.member("accepted", false)
                    writer.key("error")
                    error.write(to: &writer)
                }
            }
        }
    }

    private func run(_ actions: [OnboardingAction], on machine: OnboardingViewMachine) throws(WireError) {
        for action in actions {
            switch action {
            case .recordAnswer(let update, let meta):
                try answers.record(update, meta: meta, profileId: profiles.profileId, onboardingId: machine.onboarding.onboardingId)
            case .emit(let event):
                emit(event, on: machine)
            case .recordEmail(let email):
                try profiles.recordEmail(email)
            case .openPaywall(let actionId, let meta):
                // The paywall comes as any get_paywall's would: at once from the bundle, or
                // when the backend (or the budget) answers.
                let request = OnboardingPaywallRequest(viewId: machine.info.id, actionId: actionId, meta: meta)
                let reply: (PlacementAnswer) -> Void = { [self] answer in self.placementLoaded(request, answer) }
                if let answer = loader.warm(actionId, locale: machine.locale, reply: reply) { placementLoaded(request, answer) }
            }
        }
    }

    private func emit(_ event: OnboardingViewEvent, on machine: OnboardingViewMachine) {
        sink.emit(event.event(view: machine.info))
        analytics.onboardingView(event, view: machine.info)
    }

    /// The paywall an onboarding's paywall action named was served (or could not be): its view
    /// is created for the host, and the action is reported with both.
    private func placementLoaded(_ request: OnboardingPaywallRequest, _ answer: PlacementAnswer) {
        guard let machine = machines[request.viewId] else { return }
        let opened: OnboardingViewEvent.OpenedPaywall
        switch answer.served {
        case .success(.paywall(let served)):
            opened = .opened(paywallViews.create(served.reference, checkLayout: false), paywall: served.paywall)
        case .success(.skipped(let skipped)):
            opened = .failed(skipped.error)
        case .success(.onboarding):
            opened = .failed(WireError(.internal, "placement '\(request.actionId)' served an onboarding, not a paywall"))
        case .failure(let error):
            opened = .failed(error)
        }
        emit(.paywallAction(actionId: request.actionId, request.meta, opened: opened), on: machine)
    }
}

extension OnboardingMessage {
    /// A message as sent (an object, or JSON text), refusing oversized ones before any work.
    static func value(of raw: JSONValue) throws(WireError) -> JSONValue {
        let size: Int
        switch raw {
        case .string(let text): size = text.utf8.count
        default: size = JSONWriter.encode(raw).count
        }
        guard size <= maxBytes else {
            throw error("", "message is \(size) bytes, over the limit of \(maxBytes)")
        }
        guard case .string(let text) = raw else { return raw }
        do {
            return try JSONParser.parse(text)
        } catch {
            throw OnboardingMessage.error("", "message text is not JSON: \(error.reason) at byte \(error.offset)")
        }
    }
}
