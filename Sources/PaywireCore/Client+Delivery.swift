// Paywall and onboarding delivery with a remote source: fetch policies, the time budget, one
// shared request per placement, the cache, and the fallback from network to cache to bundle
// (between cache and bundle the newer content wins). Every fallback is reported as a log event.

/// A `get_paywall` or `get_onboarding` call waiting for the network.
struct PlacementWaiter: Sendable {
    let callToken: UInt64
    let locale: String?
    let defaultAudienceOnly: Bool
    let budgetToken: UInt64
}

/// One backend request for a placement, shared by every call that needs it meanwhile.
struct PlacementFetch: Sendable {
    var waiters: [PlacementWaiter]
}

/// What a backend request is for, so its answer finds its way back.
enum BackendRequest: Sendable {
    case placement(PlacementKey)
    /// The profile with this id (a later identify or logout makes the answer stale).
    case profile(String)
}

/// Where remote content comes from, and who carries the requests.
enum RemoteTransport {
    /// The host's network stack, through `host_request` events of kind `http`.
    case host(baseURL: String)
    /// The library's own HTTP client.
    case builtIn(baseURL: String, client: HTTPTransport, requestTimeout: Int)

    init?(_ config: TransportConfig?, builtIn: HTTPTransport?) throws(WireError) {
        guard let config else { return nil }
        switch config.carrier {
        case .host:
            self = .host(baseURL: config.baseURL)
        case .builtIn:
            guard let builtIn else {
                throw WireError.wrongParam("transport.type", "this build of the library has no built-in HTTP client; use 'host'")
            }
            self = .builtIn(baseURL: config.baseURL, client: builtIn, requestTimeout: config.requestTimeoutMilliseconds)
        }
    }

    var baseURL: String {
        switch self {
        case .host(let baseURL), .builtIn(let baseURL, _, _): return baseURL
        }
    }
    var isHost: Bool {
        if case .host = self { return true }
        return false
    }
}

extension Client {
    /// `get_paywall` (or `get_onboarding`, with `kind` onboarding) when a transport is configured.
    func getRemotePlacement(_ request: PlacementRequest, kind: PlacementKind, method: String,
                            defaultAudienceOnly: Bool = false) throws(WireError) -> CallOutcome {
        let key = PlacementKey(kind: kind, id: request.placementId)
        let requestLocale = request.locale ?? locale
        let cached = placementCache.entry(key)
        switch request.fetchPolicy {
        case .return_cache_data_else_load:
            if let cached { return .done(try serveFetched(cached, locale: requestLocale, defaultAudienceOnly: defaultAudienceOnly)) }
        case .return_cache_data_if_not_expired_else_load:
            if let cached, let maxAge = request.maxAge, Double(clock.nowMilliseconds() - cached.fetchedAt) <= maxAge * 1000 {
                return .done(try serveFetched(cached, locale: requestLocale, defaultAudienceOnly: defaultAudienceOnly))
            }
        case .reload_revalidating_cache_data:
            break
        }
        let (token, outcome, budget) = try deferForBackend(method, loadTimeout: request.loadTimeout) { .loadBudget(callToken: $0, key: key) }
        let waiter = PlacementWaiter(callToken: token, locale: requestLocale, defaultAudienceOnly: defaultAudienceOnly, budgetToken: budget)
        if placementFetches[key] != nil {
            placementFetches[key]?.waiters.append(waiter)
        } else {
            placementFetches[key] = PlacementFetch(waiters: [waiter])
            sendToBackend(.placement(key), method: "GET",
                          url: RemoteSource.url(baseURL: remote?.baseURL ?? "", collection: kind.collection, id: key.id),
                          headers: RemoteSource.headers(profileId: profile.profileId, etag: cached?.etag))
        }
        return outcome
    }

    /// Promises an answer to a call that waits on the backend, and sets its `load_timeout`
    /// budget (`budgetWork` names what happens when it runs out). A synchronous caller waits a
    /// little past the budget at most, so the budget's own answer always reaches it first.
    func deferForBackend(_ method: String, loadTimeout: Double,
                         budgetWork: (UInt64) -> TimerWork) throws(WireError) -> (token: UInt64, outcome: CallOutcome, budget: UInt64) {
        let budgetMilliseconds = Int(loadTimeout * 1000)
        let (token, outcome) = try deferResponse(method, waitsOnHost: remote?.isHost ?? true, waitLimit: budgetMilliseconds + 2000)
        return (token, outcome, schedule(budgetWork(token), after: budgetMilliseconds))
    }

    /// Sends one request to the backend, through the host or the built-in client.
    func sendToBackend(_ purpose: BackendRequest, method: String, url: String, headers: [(name: String, value: String)]) {
        switch remote {
        case .builtIn(_, let client, let requestTimeout):
            let token = nextHTTPToken
            nextHTTPToken += 1
            httpExchanges[token] = purpose
            client.send(HTTPRequest(method: method, url: url, headers: headers, body: nil, timeoutMilliseconds: requestTimeout), token: token)
        case .host, nil:
            let timeout = hostRequestTimeout
            askHost(.http, view: nil, backend: purpose) { writer in
                writer.member("method", method)
                writer.member("url", url)
                writer.key("headers")
                writer.array { writer in
                    for (name, value) in headers { writer.array { writer in writer.string(name); writer.string(value) } }
                }
                writer.member("body", nil as String?)
                writer.member("timeout_ms", timeout)
            }
        }
    }

    /// The built-in client's answer to request `token`. Called by the boundary under the
    /// client's lock; an unknown token (already answered) is ignored.
    public func httpFinished(token: UInt64, outcome: HTTPOutcome) {
        guard let purpose = httpExchanges.removeValue(forKey: token) else { return }
        backendAnswered(purpose, outcome: outcome)
    }

    /// A backend request ended, by whichever transport.
    func backendAnswered(_ purpose: BackendRequest, outcome: HTTPOutcome) {
        switch purpose {
        case .placement(let key): finishPlacementFetch(key, outcome: outcome)
        case .profile(let profileId): finishProfileFetch(profileId, outcome: outcome)
        }
    }

    /// The backend answered (or the request failed or timed out): keep what came, then answer
    /// every call still waiting.
    private func finishPlacementFetch(_ key: PlacementKey, outcome: HTTPOutcome) {
        let placementId = key.id
        let fetch = placementFetches.removeValue(forKey: key)
        var failure: WireError?
        // A fresh copy the disk refused: served to the calls waiting now, kept nowhere.
        var uncached: RemoteSource.Fetched?
        switch outcome {
        case .timedOut:
            failure = WireError(.timeout, "the backend did not answer in time", details: JSONObject([("placement_id", .string(placementId))]))
        case .failed(let code, let message):
            failure = WireError(.networkFailed, message, details: JSONObject([("placement_id", .string(placementId)), ("underlying_error", .string(code))]))
        case .response(let response):
            switch RemoteSource.interpret(response, key: key, now: clock.nowMilliseconds()) {
            case .fresh(let fetched):
                do throws(WireError) { try placementCache.store(fetched) } catch {
                    log(.error, "could not cache placement '\(placementId)': \(error.message)",
                        details: [("placement_id", .string(placementId)), ("code", .string(error.code.rawValue))]
                            + error.details.members.map { ($0.key, $0.value) })
                    uncached = fetched
                }
            case .notModified:
                do throws(WireError) { try placementCache.touch(key, now: clock.nowMilliseconds()) } catch {
                    log(.error, "could not refresh the cached placement '\(placementId)': \(error.message)")
                }
            case .notFound:
                failure = WireError(.notFound, "the backend has no placement '\(placementId)'",
                                    details: JSONObject([("placement_id", .string(placementId))]))
            case .failed(let error):
                failure = error
            }
        }
        guard let fetch else { return }
        for waiter in fetch.waiters {
            timers.removeValue(forKey: waiter.budgetToken)
            completions?.complete(token: waiter.callToken, response: answerWaiter(waiter, key: key, networkFailure: failure, fetchedNow: uncached))
        }
    }

    /// The budget ran out before the backend answered: answer from cache or bundle now; the
    /// request goes on, and its answer still refreshes the cache.
    func loadBudgetExpired(callToken: UInt64, key: PlacementKey) {
        guard let index = placementFetches[key]?.waiters.firstIndex(where: { $0.callToken == callToken }),
              let waiter = placementFetches[key]?.waiters.remove(at: index) else { return }
        let failure = WireError(.timeout, "the backend did not answer within the load_timeout budget",
                                details: JSONObject([("placement_id", .string(key.id))]))
        completions?.complete(token: callToken, response: answerWaiter(waiter, key: key, networkFailure: failure))
    }

    /// The newest of network, cache and bundle: the fetched copy when the network answered,
    /// else the newer of cache and bundle; an error when there is none.
    private func answerWaiter(_ waiter: PlacementWaiter, key: PlacementKey, networkFailure: WireError?,
                              fetchedNow: RemoteSource.Fetched? = nil) -> CallResponse {
        let placementId = key.id
        do throws(WireError) {
            let cached = fetchedNow ?? placementCache.entry(key)
            if networkFailure == nil, let cached {
                return try serveFetched(cached, locale: waiter.locale, defaultAudienceOnly: waiter.defaultAudienceOnly)
            }
            let failure = networkFailure ?? WireError(.networkFailed, "the backend sent nothing usable")
            let inBundle: Bool
            switch key.kind {
            case .paywall: inBundle = (try? bundle?.paywalls.placement(placementId)) != nil
            case .onboarding: inBundle = (try? bundle?.onboardings.placement(placementId)) != nil
            }
            let bundleVersion = inBundle ? bundle?.responseCreatedAt : nil
            if let cached, cached.responseCreatedAt >= (bundleVersion ?? .min) {
                logFallback(placementId, source: "cache", failure: failure)
                return try serveFetched(cached, locale: waiter.locale, defaultAudienceOnly: waiter.defaultAudienceOnly)
            }
            if bundleVersion != nil {
                logFallback(placementId, source: "fallback", failure: failure)
                switch key.kind {
                case .paywall:
                    return CallResponse(status: .ok, envelope: try servePaywall(placementId, locale: waiter.locale,
                                                                                defaultAudienceOnly: waiter.defaultAudienceOnly).envelope)
                case .onboarding:
                    return try serveOnboardingFromBundle(placementId, locale: waiter.locale)
                }
            }
            throw failure
        } catch {
            return .failure(error)
        }
    }

    /// The details of a log event saying which source served instead of the backend, and why:
    /// the wire code, the transport's own name for the failure when there is one
    /// (`connect_failed`, ...), and the HTTP status of an HTTP error.
    static func fallbackDetails(source: String, failure: WireError) -> [(key: String, value: JSONValue)] {
        var details: [(key: String, value: JSONValue)] = [("source", .string(source)), ("underlying_error", .string(failure.code.rawValue))]
        if let transportError = failure.details["underlying_error"] { details.append(("transport_error", transportError)) }
        if let status = failure.details["status"] { details.append(("status", status)) }
        return details
    }

    /// Logs which source served a placement instead of the network, and why.
    private func logFallback(_ placementId: String, source: String, failure: WireError) {
        let details = [("placement_id", JSONValue.string(placementId))] + Client.fallbackDetails(source: source, failure: failure)
        log(.warn, "placement '\(placementId)' served from the \(source == "cache" ? "cache" : "fallback bundle"): \(failure.message)",
            details: details)
    }

    /// A paywall or onboarding from a fetched placement.
    private func serveFetched(_ fetched: RemoteSource.Fetched, locale requestLocale: String?, defaultAudienceOnly: Bool) throws(WireError) -> CallResponse {
        switch fetched.key.kind {
        case .paywall: return try serveFetchedPaywall(fetched, locale: requestLocale, defaultAudienceOnly: defaultAudienceOnly)
        case .onboarding:
            let placement: Placement<OnboardingVariation> = try loadFetched(fetched)
            let onboarding = Onboarding(selection: try select(placement, locale: requestLocale, defaultAudienceOnly: false,
                                                              responseCreatedAt: fetched.responseCreatedAt))
            return .success { writer in onboarding.write(to: &writer) }
        }
    }

    /// A paywall from a fetched placement, encoded once per fetched copy and then reused.
    private func serveFetchedPaywall(_ fetched: RemoteSource.Fetched, locale requestLocale: String?, defaultAudienceOnly: Bool) throws(WireError) -> CallResponse {
        let key = PaywallCacheKey(placementId: fetched.placementId, requestLocale: requestLocale,
                                  defaultAudienceOnly: defaultAudienceOnly, remote: true)
        let copy = (fetched.fetchedAt, fetched.responseCreatedAt)
        if let served = servedPaywalls[key], served.isCurrent(now: clock.nowMilliseconds, fetchedCopy: copy) {
            return CallResponse(status: .ok, envelope: served.envelope)
        }
        let placement: Placement<Variation> = try loadFetched(fetched)
        let selection = try select(placement, locale: requestLocale, defaultAudienceOnly: defaultAudienceOnly,
                                   responseCreatedAt: fetched.responseCreatedAt)
        var writer = JSONWriter(reservingCapacity: 1024)
        Paywall(selection: selection).write(to: &writer)
        let response = CallResponse.success(writer.bytes)
        servedPaywalls[key] = ServedPaywall(paywall: writer.bytes, envelope: response.envelope,
                                            validUntil: choiceValidUntil(), fetchedCopy: copy)
        return response
    }

    /// A fetched placement, parsed and checked by the rules the bundle's placements follow.
    private func loadFetched<V>(_ fetched: RemoteSource.Fetched) throws(WireError) -> Placement<V> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(fetched.placement)
        } catch {
            throw WireError(.decodingFailed, "the cached placement '\(fetched.placementId)' does not parse")
        }
        do throws(WireError) {
            return try Placement<V>.load(id: fetched.placementId, section: fetched.key.kind.collection, from: value)
        } catch {
            throw WireError(.decodingFailed, "the backend's placement is invalid: \(error.message)", details: error.details)
        }
    }
}

extension HostAnswer {
    /// The host's answer to an `http` request, as the outcome of the exchange: `result
    /// {status, headers, body}`, `result {transport_error {code, message}}`, or `error`.
    var httpOutcome: HTTPOutcome {
        if let error = error(code: .networkFailed, fallback: "the request failed") {
            return .failed(code: error.code.rawValue, message: error.message)
        }
        guard let result else { return .failed(code: "bad_answer", message: "the host's answer has neither result nor error") }
        if case .object(let fields)? = result.object["transport_error"] {
            var code = "transport_error"
            var message = "the host's HTTP request failed"
            if case .string(let text)? = fields["code"] { code = text }
            if case .string(let text)? = fields["message"] { message = text }
            return .failed(code: code, message: message)
        }
        guard case .number(let statusNumber)? = result.object["status"], let status = statusNumber.intValue else {
            return .failed(code: "bad_answer", message: "the HTTP answer has no status")
        }
        var headers: [(name: String, value: String)] = []
        if case .array(let pairs)? = result.object["headers"] {
            for pair in pairs {
                if case .array(let parts) = pair, parts.count == 2, case .string(let name) = parts[0], case .string(let value) = parts[1] {
                    headers.append((name, value))
                }
            }
        }
        var body: [UInt8] = []
        if case .string(let text)? = result.object["body"] { body = Array(text.utf8) }
        return .response(HTTPResponse(status: status, headers: headers, body: body))
    }
}
