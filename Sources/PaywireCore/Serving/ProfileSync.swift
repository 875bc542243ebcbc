/// `get_profile` with a remote source: asks the backend what it knows of the profile
/// (purchases made elsewhere), merges it in, and answers within the `load_timeout` budget; when
/// the backend fails or is late, the device's profile answers, with a log event saying why.
/// Concurrent calls share one request; an answer about a profile the app has since left is
/// not merged.
final class ProfileSync {
    /// The request in flight and the calls waiting for it.
    private struct Fetch {
        let profileId: String
        var waiters: [(callToken: UInt64, budgetToken: UInt64)]
    }

    private let backend: Backend?
    private let profiles: ProfileStore
    /// Whose transactions are still waiting for the backend (their grants stand until then).
    private let purchases: Purchases
    private let timers: Timers
    private let calls: Calls
    private let log: Log
    private var fetch: Fetch?
    /// The ETag of the profile last fetched, for revalidation.
    private var etag: (profileId: String, value: String)?

    init(backend: Backend?, profiles: ProfileStore, purchases: Purchases, timers: Timers, calls: Calls, log: Log) {
        self.backend = backend
        self.profiles = profiles
        self.purchases = purchases
        self.timers = timers
        self.calls = calls
        self.log = log
    }

    func get(_ request: ProfileRequest) throws(WireError) -> CallOutcome {
        if let requested = request.clampedLoadTimeout {
            log(.warn, "load_timeout \(requested) s raised to the minimum of \(PlacementRequest.minimumLoadTimeout) s",
                details: [("field", .string("load_timeout"))])
        }
        guard let backend, request.fetchFromBackend else { return .done(profiles.response()) }
        let (token, outcome, budget) = try backend.promise("get_profile", loadTimeout: request.loadTimeout) { [weak self] in
            self?.budgetExpired(callToken: $0)
        }
        let profileId = profiles.profileId
        if fetch?.profileId == profileId {
            fetch?.waiters.append((token, budget))
            return outcome
        }
        // A fetch for a profile the app has since left keeps running, but nobody waits on it.
        if let stale = fetch { answer(stale.waiters, failure: nil) }
        fetch = Fetch(profileId: profileId, waiters: [(token, budget)])
        let knownTag = etag?.profileId == profileId ? etag?.value : nil
        backend.send(method: "GET", url: backend.url("profiles", profileId),
                     headers: RemoteSource.headers(profileId: profileId, etag: knownTag)) { [weak self] outcome in
            self?.backendAnswered(profileId, outcome)
        }
        return outcome
    }

    /// The backend's answer about `profileId`: merged in when it is still the current profile
    /// (a change emits `did_load_latest_profile`), then every waiting call is answered.
    private func backendAnswered(_ profileId: String, _ outcome: HTTPOutcome) {
        let failure = merge(outcome, profileId: profileId)
        guard let current = fetch, current.profileId == profileId else { return }
        fetch = nil
        answer(current.waiters, failure: failure)
    }

    /// The budget ran out first: the device's profile answers; the request goes on.
    private func budgetExpired(callToken: UInt64) {
        guard let index = fetch?.waiters.firstIndex(where: { $0.callToken == callToken }),
              let waiter = fetch?.waiters.remove(at: index) else { return }
        answer([waiter], failure: WireError(.timeout, "the backend did not answer within the load_timeout budget"))
    }

    /// Merges a 200; returns why nothing usable came, or nil (304 and 404 are not failures: a
    /// profile the backend has not met yet is the device's own).
    private func merge(_ outcome: HTTPOutcome, profileId: String) -> WireError? {
        switch outcome {
        case .timedOut:
            return WireError(.timeout, "the backend did not answer in time")
        case .failed(let code, let message):
            return WireError(.networkFailed, message, details: JSONObject([("underlying_error", .string(code))]))
        case .response(let response):
            switch response.status {
            case 200:
                do throws(WireError) {
                    let snapshot = try RemoteProfile.parse(response.body)
                    if profiles.profileId == profileId {
                        // An answer that could not be kept is not remembered as seen: the next
                        // request must not be answered 304 for it.
                        if let error = profiles.applyBackend(snapshot, profileId: profileId, pending: purchases.pendingTransactions) {
                            return error
                        }
                        if let tag = response.header("etag") { etag = (profileId, tag) }
                    }
                    return nil
                } catch {
                    return error
                }
            case 304, 404:
                return nil
            default:
                return WireError(.networkFailed, "the backend answered HTTP \(response.status)",
                                 details: JSONObject([("status", .number(JSONNumber(response.status)))]))
            }
        }
    }

    private func answer(_ waiters: [(callToken: UInt64, budgetToken: UInt64)], failure: WireError?) {
        guard !waiters.isEmpty else { return }
        if let failure {
            log(.warn, "profile served from the device: \(failure.message)", details: RemoteSource.fallbackDetails(source: "device", failure: failure))
        }
        let response = profiles.response()
        for waiter in waiters {
            timers.cancel(waiter.budgetToken)
            calls.complete(waiter.callToken, response)
        }
    }
}
