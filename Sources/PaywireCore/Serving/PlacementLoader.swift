import PaywireModel
import PaywireWire

/// `get_paywall`, `get_paywall_for_default_audience` and `get_onboarding`: the fetch policies,
/// the `load_timeout` budget, one shared backend request per placement, the cache, and the
/// fallback from network to cache to bundle (between cache and bundle the newer content wins).
/// Every fallback is reported as a log event saying which source served and why.
final class PlacementLoader {
    /// Someone waiting for the network: a call, or an onboarding view's paywall action, with
    /// what it does with the answer.
    private struct Waiter {
        let id: UInt64
        let reply: (PlacementAnswer) -> Void
        let locale: String?
        let choice: PaywallChoice
        let budgetToken: UInt64
    }

    private var nextWaiter: UInt64 = 1

    private let server: PlacementServer
    private let cache: PlacementCache
    /// Nil with no transport configured: the bundle is the only source.
    private let backend: Backend?
    private let profiles: ProfileStore
    private let timers: Timers
    private let calls: Calls
    private let log: Log
    private let clock: Clock
    private let defaultLocale: String?
    /// With `response_verification`: judges each placement the backend answers (`DocumentSignature`).
    private let documents: DocumentVerifier?
    /// Backend requests in flight, by placement, with the calls waiting for each.
    private var fetches: [PlacementKey: [Waiter]] = [:]

    init(server: PlacementServer, cache: PlacementCache, backend: Backend?, profiles: ProfileStore, timers: Timers,
         calls: Calls, log: Log, clock: Clock, defaultLocale: String?, documents: DocumentVerifier? = nil) {
        self.server = server
        self.cache = cache
        self.backend = backend
        self.profiles = profiles
        self.timers = timers
        self.calls = calls
        self.log = log
        self.clock = clock
        self.defaultLocale = defaultLocale
        self.documents = documents
    }

    /// Serves the placement `request` names; with a backend, within the request's policy and
    /// budget. `respond` makes the call's answer of what served (by default the placement).
    func get(_ request: PlacementRequest, kind: PlacementKind, method: String, choice: PaywallChoice = .byAudience,
             respond: @escaping (PlacementAnswer) -> CallResponse = { $0.response }) throws(WireError) -> CallOutcome {
        if let requested = request.clampedLoadTimeout {
            log(.warn, "load_timeout \(requested) s raised to the minimum of \(PlacementRequest.minimumLoadTimeout) s",
                details: [("field", .string("load_timeout"))])
        }
        let key = PlacementKey(kind: kind, id: request.placementId)
        let locale = self.locale(request.locale)
        if let now = try answerNow(key, locale: locale, choice: choice, cacheServes: { PlacementLoader.cacheServes($0, request, now: $1) }) {
            return .done(respond(now))
        }
        guard let backend else { throw WireError(.internal, "a placement without a backend was not served at once") }
        let waiterId = nextWaiter
        let (token, outcome, budget) = try backend.promise(method, loadTimeout: request.loadTimeout) { [self] _ in
            self.budgetExpired(waiter: waiterId, key: key)
        }
        let calls = self.calls
        wait(Waiter(id: waiterId, reply: { calls.complete(token, respond($0)) }, locale: locale, choice: choice, budgetToken: budget),
             for: key, backend: backend)
        return outcome
    }

    /// Serves a paywall placement as `get_paywall` with its default policy and budget would
    /// (the backend asked, revalidating the cached copy; then cache, then bundle), and says which
    /// source served. Without a backend the bundle answers at once (returned); otherwise the
    /// answer goes to `reply`, sharing the request in flight for the placement.
    func warm(_ placementId: String, locale requested: String?,
              reply: @escaping (PlacementAnswer) -> Void) -> PlacementAnswer? {
        let key = PlacementKey(kind: .paywall, id: placementId)
        let locale = self.locale(requested)
        do throws(WireError) {
            if let now = try answerNow(key, locale: locale, choice: .byAudience, cacheServes: { _, _ in false }) { return now }
        } catch {
            return .failed(error)
        }
        guard let backend else { return .failed(WireError(.internal, "a placement without a backend was not served at once")) }
        let waiterId = nextWaiter
        let budget = timers.schedule(after: Milliseconds.of(seconds: PlacementRequest.defaultLoadTimeout)) { [self] in
            self.budgetExpired(waiter: waiterId, key: key)
        }
        wait(Waiter(id: waiterId, reply: reply, locale: locale, choice: .byAudience, budgetToken: budget), for: key, backend: backend)
        return nil
    }

    /// The one rule for the locale of a request that names none: the config's.
    /// Drops every waiter of a fetch in flight, unanswered (the client is being freed).
    func cancelAll() { fetches.removeAll() }

    private func locale(_ requested: String?) -> String? { requested ?? defaultLocale }

    /// The answer that needs no network: the bundle's when there is no backend, the cached copy
    /// when the policy lets it answer; nil when the backend must be asked.
    private func answerNow(_ key: PlacementKey, locale: String?, choice: PaywallChoice,
                           cacheServes: (RemoteSource.Fetched, WideInt) -> Bool) throws(WireError) -> PlacementAnswer? {
        guard backend != nil else { return PlacementAnswer(try server.serveFromBundle(key, locale: locale, choice: choice), .fallback) }
        guard let cached = cache.entry(key), cacheServes(cached, clock.nowMilliseconds()) else { return nil }
        return PlacementAnswer(try server.serveFetched(cached, locale: locale, choice: choice), .cache)
    }

    /// `prefetch`: warms every placement asked for; the answer comes when the last one is served
    /// (each within its own budget), one failing placement reported beside the others.
    func prefetch(_ request: PrefetchRequest) throws(WireError) -> CallOutcome {
        guard let backend else {
            let run = PrefetchRun(placementIds: request.placementIds)
            for (index, placementId) in request.placementIds.enumerated() {
                if let answer = warm(placementId, locale: request.locale, reply: { _ in }) { run.record(index, answer) }
            }
            return .done(run.response)
        }
        // Each placement has its own budget; this one only bounds a synchronous caller's wait.
        let (token, outcome, budget) = try backend.promise("prefetch", loadTimeout: PlacementRequest.defaultLoadTimeout) { _ in }
        let (calls, timers) = (self.calls, self.timers)
        let run = PrefetchRun(placementIds: request.placementIds) { response in
            timers.cancel(budget)
            calls.complete(token, response)
        }
        for (index, placementId) in request.placementIds.enumerated() {
            if let now = warm(placementId, locale: request.locale, reply: { run.record(index, $0) }) { run.record(index, now) }
        }
        return outcome
    }

    /// Adds a waiter to the request in flight for `key`, sending one (revalidating the cached
    /// copy) when there is none.
    private func wait(_ waiter: Waiter, for key: PlacementKey, backend: Backend) {
        nextWaiter += 1
        if fetches[key] != nil {
            fetches[key]?.append(waiter)
            return
        }
        fetches[key] = [waiter]
        backend.send(method: "GET", url: backend.url(key.kind.collection, key.id),
                     headers: RemoteSource.headers(profileId: profiles.profileId, etag: cache.entry(key)?.etag)
                        + (documents?.requestHeaders ?? [])) { [self] outcome in
            self.backendAnswered(key, outcome)
        }
    }

    /// `get_paywall {paywall_id}` without a placement: from the bundle, rules skipped.
    func getPaywall(byId paywallId: String, locale: String?) throws(WireError) -> CallResponse {
        ServedPlacement.paywall(try server.servePaywall(byId: paywallId, locale: self.locale(locale))).response
    }

    /// Whether the fetch policy lets the cached copy answer without asking the backend.
    private static func cacheServes(_ cached: RemoteSource.Fetched, _ request: PlacementRequest, now: WideInt) -> Bool {
        switch request.fetchPolicy {
        case .return_cache_data_else_load: return true
        case .return_cache_data_if_not_expired_else_load:
            guard let maxAge = request.maxAge else { return false }
            return Double(now.clampedSubtracting(cached.fetchedAt)) <= maxAge * 1000
        case .reload_revalidating_cache_data: return false
        }
    }

    /// The backend answered (or the request failed or timed out): keep what came, then answer
    /// every call still waiting.
    private func backendAnswered(_ key: PlacementKey, _ outcome: HTTPOutcome) {
        let (failure, uncached) = keep(outcome, for: key)
        guard let waiters = fetches.removeValue(forKey: key) else { return }
        for waiter in waiters {
            timers.cancel(waiter.budgetToken)
            waiter.reply(answer(waiter, key: key, networkFailure: failure, fetchedNow: uncached))
        }
    }

    /// The budget ran out before the backend answered: answer from cache or bundle now; the
    /// request goes on, and its answer still refreshes the cache.
    private func budgetExpired(waiter waiterId: UInt64, key: PlacementKey) {
        guard let index = fetches[key]?.firstIndex(where: { $0.id == waiterId }),
              let waiter = fetches[key]?.remove(at: index) else { return }
        let failure = WireError(.timeout, "the backend did not answer within the load_timeout budget",
                                details: JSONObject([("placement_id", .string(key.id))]))
        waiter.reply(answer(waiter, key: key, networkFailure: failure))
    }

    /// Caches what the backend sent; returns why nothing usable came (or nil), and a fresh
    /// copy the disk refused: it answers the calls waiting now, but is kept nowhere, so memory
    /// never claims what the disk did not keep.
    private func keep(_ outcome: HTTPOutcome, for key: PlacementKey) -> (failure: WireError?, uncached: RemoteSource.Fetched?) {
        let placementId = key.id
        switch outcome {
        case .timedOut:
            return (WireError(.timeout, "the backend did not answer in time", details: JSONObject([("placement_id", .string(placementId))])), nil)
        case .failed(let code, let message):
            return (WireError(.networkFailed, message, details: JSONObject([("placement_id", .string(placementId)), ("underlying_error", .string(code))])), nil)
        case .response(let response):
            let result: RemoteSource.Result
            do throws(WireError) { result = try RemoteSource.interpret(response, key: key, now: clock.nowMilliseconds()) } catch {
                return (error, nil)
            }
            switch result {
            case .fresh(var fetched):
                if let documents {
                    do throws(WireError) { fetched = try documents.judgeFresh(fetched, response: response, log: log) } catch {
                        return (error, nil)
                    }
                }
                do throws(WireError) { try cache.store(fetched) } catch {
                    log(.error, "could not cache placement '\(placementId)': \(error.message)",
                        details: [("placement_id", .string(placementId))] + error.logDetails)
                    return (nil, fetched)
                }
            case .notModified:
                do throws(WireError) { try cache.touch(key, now: clock.nowMilliseconds()) } catch {
                    log(.error, "could not refresh the cached placement '\(placementId)': \(error.message)")
                }
            case .notFound:
                return (WireError(.notFound, "the backend has no placement '\(placementId)'",
                                  details: JSONObject([("placement_id", .string(placementId))])), nil)
            }
            return (nil, nil)
        }
    }

    /// The newest of network, cache and bundle: the fetched copy when the network answered,
    /// else the newer of cache and bundle; an error when there is none.
    private func answer(_ waiter: Waiter, key: PlacementKey, networkFailure: WireError?,
                        fetchedNow: RemoteSource.Fetched? = nil) -> PlacementAnswer {
        do throws(WireError) {
            let cached = fetchedNow ?? cache.entry(key)
            if networkFailure == nil, let cached {
                return PlacementAnswer(try server.serveFetched(cached, locale: waiter.locale, choice: waiter.choice), .backend)
            }
            let failure = networkFailure ?? WireError(.networkFailed, "the backend sent nothing usable")
            let bundleVersion = server.bundleVersion(of: key)
            if let cached, cached.responseCreatedAt >= (bundleVersion ?? .min) {
                logFallback(key.id, source: "cache", failure: failure)
                return PlacementAnswer(try server.serveFetched(cached, locale: waiter.locale, choice: waiter.choice), .cache, failure)
            }
            guard bundleVersion != nil else { throw failure }
            logFallback(key.id, source: "fallback", failure: failure)
            return PlacementAnswer(try server.serveFromBundle(key, locale: waiter.locale, choice: waiter.choice), .fallback, failure)
        } catch {
            return .failed(error)
        }
    }

    /// Logs which source served a placement instead of the network, and why.
    private func logFallback(_ placementId: String, source: String, failure: WireError) {
        let details = [("placement_id", JSONValue.string(placementId))] + RemoteSource.fallbackDetails(source: source, failure: failure)
        log(.warn, "placement '\(placementId)' served from the \(source == "cache" ? "cache" : "fallback bundle"): \(failure.message)",
            details: details)
    }
}
