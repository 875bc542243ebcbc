// The view methods: creating paywall and onboarding views, and turning what an onboarding page
// sends into canonical events. The message rules live in Views/; this file wires them to the
// client's profile, storage and event stream.

extension Client {
    func getOnboarding(_ params: Fields) throws(WireError) -> CallOutcome {
        let request = try PlacementRequest(params)
        warnIfClamped(request)
        if remote != nil { return try getRemotePlacement(request, kind: .onboarding, method: "get_onboarding") }
        return .done(try serveOnboardingFromBundle(request.placementId, locale: request.locale ?? locale))
    }

    /// The onboarding the bundle's placement serves this profile.
    func serveOnboardingFromBundle(_ placementId: String, locale requestLocale: String?) throws(WireError) -> CallResponse {
        let placement: Placement<OnboardingVariation> = try placementFromBundle(placementId, in: { $0.onboardings })
        let onboarding = Onboarding(selection: try select(placement, locale: requestLocale, defaultAudienceOnly: false))
        return .success { writer in onboarding.write(to: &writer) }
    }

    func createOnboardingView(_ params: Fields) throws(WireError) -> CallResponse {
        let onboarding = try OnboardingReference(try params.object("onboarding"))
        let openPaywall = try params.optionalBool("open_paywall") ?? false
        let viewLocale = try params.optionalString("locale") ?? locale
        let record = views.addOnboardingView(onboarding, openPaywall: openPaywall, locale: viewLocale)
        return .success { writer in record.info.write(to: &writer) }
    }

    func getOnboardingState(_ params: Fields) throws(WireError) -> CallResponse {
        let onboardingId = try params.identifier("onboarding_id")
        var writer = JSONWriter()
        try onboardingAnswers.state(profileId: profile.profileId, onboardingId: onboardingId, to: &writer)
        return .success(writer.bytes)
    }

    /// Takes one message as the page sent it (an object, or the JSON text a web view delivered),
    /// emits its canonical event, and keeps answers. A message that cannot be understood emits
    /// `onboarding_did_fail_with_error` and changes nothing; the view keeps working.
    func onboardingViewIngest(_ params: Fields) throws(WireError) -> CallResponse {
        let viewId = try params.identifier("view_id")
        guard let view = views.onboardingViews[viewId] else {
            throw WireError(.notFound, "no onboarding view '\(viewId)'", details: JSONObject([("view_id", .string(viewId))]))
        }
        let type = try params.optionalString("type")
        guard let raw = params.optional("message") else { throw WireError.wrongParam("message", "is required") }
        do throws(WireError) {
            let message = try OnboardingMessage.parse(try Client.messageValue(raw), type: type)
            guard message.meta.onboardingId == view.onboarding.onboardingId else {
                throw OnboardingMessage.error("meta.onboarding_id",
                    "'\(message.meta.onboardingId)' is not this view's onboarding '\(view.onboarding.onboardingId)'")
            }
            try apply(message, on: view)
            return .success { writer in writer.object { writer in writer.member("accepted", true) } }
        } catch {
            sink.emit(Event("onboarding_did_fail_with_error") { writer in
                writer.key("view")
                view.info.write(to: &writer)
                writer.key("error")
                error.write(to: &writer)
            })
            return .success { writer in
                writer.object { writer in
                    writer.member("accepted", false)
                    writer.key("error")
                    error.write(to: &writer)
                }
            }
        }
    }

    /// The message as a JSON value, refusing oversized ones before any work.
    private static func messageValue(_ raw: JSONValue) throws(WireError) -> JSONValue {
        let size: Int
        switch raw {
        case .string(let text): size = text.utf8.count
        default: size = JSONWriter.encode(raw).count
        }
        guard size <= OnboardingMessage.maxBytes else {
            throw OnboardingMessage.error("", "message is \(size) bytes, over the limit of \(OnboardingMessage.maxBytes)")
        }
        guard case .string(let text) = raw else { return raw }
        do {
            return try JSONParser.parse(text)
        } catch {
            throw OnboardingMessage.error("", "message text is not JSON: \(error.reason) at byte \(error.offset)")
        }
    }

    private func apply(_ message: OnboardingMessage, on view: OnboardingViewRecord) throws(WireError) {
        func emit(_ name: String, _ body: (inout JSONWriter) -> Void) {
            sink.emit(Event(name) { writer in
                writer.key("view")
                view.info.write(to: &writer)
                message.meta.write(to: &writer)
                body(&writer)
            })
        }
        switch message {
        case .custom(let actionId, _):
            emit("onboarding_on_custom_action") { writer in writer.member("action_id", actionId) }
        case .close(let actionId, _):
            emit("onboarding_on_close_action") { writer in writer.member("action_id", actionId) }
        case .finishedLoading:
            emit("onboarding_did_finish_loading") { _ in }
        case .analytics(let event, _):
            // Not "event": that key is the event's name in every event.
            emit("onboarding_on_analytics_action") { writer in
                writer.key("analytics_event")
                event.write(to: &writer)
            }
        case .stateUpdated(let update, let meta):
            try onboardingAnswers.record(update, meta: meta, profileId: profile.profileId, onboardingId: view.onboarding.onboardingId)
            emit("onboarding_on_state_updated_action") { writer in
                writer.key("action")
                update.write(to: &writer)
            }
            if let email = update.email, view.onboarding.recordEmailOnProfile, email != profile.email {
                var next = profile
                next.email = email
                try switchProfile(to: next)
            }
        case .openPaywall(let actionId, _):
            guard view.openPaywall else {
                emit("onboarding_on_paywall_action") { writer in writer.member("action_id", actionId) }
                return
            }
            // The action id names a paywall placement: fetch it and create its view for the host.
            let opened: Result<(ServedPaywall, PaywallViewState), WireError>
            do throws(WireError) {
                let served = try servePaywall(actionId, locale: view.locale)
                guard let value = try? JSONParser.parse(served.paywall) else {
                    throw WireError(.internal, "a served paywall did not parse")
                }
                let reference = try PaywallReference(try Fields(value, path: "paywall"))
                opened = .success((served, views.addPaywallView(reference)))
            } catch {
                opened = .failure(error)
            }
            emit("onboarding_on_paywall_action") { writer in
                writer.member("action_id", actionId)
                switch opened {
                case .success(let (served, paywallView)):
                    writer.key("paywall_view")
                    paywallView.info.write(to: &writer)
                    writer.key("paywall")
                    writer.raw(served.paywall)
                case .failure(let error):
                    writer.key("paywall_error")
                    error.write(to: &writer)
                }
            }
        }
    }
}
