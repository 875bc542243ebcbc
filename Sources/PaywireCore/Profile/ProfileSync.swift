import PaywireModel
import PaywireWire

/// What the device knows of its profile, kept fresh from the backend: `get_profile` merges the
/// backend's answer and answers within the `load_timeout` budget (when the backend fails or is
/// late, the device's profile answers, with a log event saying why); `refresh_profile` waits
/// for the backend and fails when it does; refreshes with nobody waiting (the client's start,
/// the app coming to the foreground, a grant's time passing) merge what comes and log a
/// failure. Concurrent requests share one fetch; an answer about a profile the app has since
/// left is not merged. A changed profile emits `did_load_latest_profile` (ProfileStore).
final class ProfileSync {
    /// A call waiting for the fetch: `strict` (refresh_profile) fails with the backend; the
    /// others are answered from the device when it fails.
    private struct Waiter {
        let callToken: UInt64
        let budgetToken: UInt64
        let strict: Bool
    }

    /// The request in flight, the calls waiting for it, and why it was started.
    private struct Fetch {
        let profileId: String
        var waiters: [Waiter]
        let reason: String
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
        profiles.whenAccessTimePasses { [weak self] in self?.refreshInBackground(reason: "access_time_passed") }
    }

    /// `get_profile {fetch_policy?, load_timeout?}`.
    func get(_ request: ProfileRequest) throws(WireError) -> CallOutcome {
        warnIfClamped(request.clampedLoadTimeout)
        guard let backend, request.fetchFromBackend else { return .done(profiles.response()) }
        return try wait(on: backend, method: "get_profile", loadTimeout: request.loadTimeout, strict: false)
    }

    /// `refresh_profile {load_timeout?}`: the backend's answer, or its failure.
    func refresh(loadTimeout: Double, clamped: Double?) throws(WireError) -> CallOutcome {
        warnIfClamped(clamped)
        guard let backend else {
            throw WireError(.invalidState, "refresh_profile needs a backend, and no transport is configured")
        }
        return try wait(on: backend, method: "refresh_profile", loadTimeout: loadTimeout, strict: true)
    }

    /// A refresh nobody waits for (`reason`: start, app_did_become_active, access_time_passed);
    /// nothing without a backend, and nothing new when a fetch for this profile is in flight.
    func refreshInBackground(reason: String) {
        guard let backend, fetch?.profileId != profiles.profileId else { return }
        startFetch(on: backend, waiters: [], reason: reason)
    }

    private func warnIfClamped(_ requested: Double?) {
        guard let requested else { return }
        log(.warn, "load_timeout \(requested) s raised to the minimum of \(PlacementRequest.minimumLoadTimeout) s",
            details: [("field", .string("load_timeout"))])
    }

    private func wait(on backend: Backend, method: String, loadTimeout: Double, strict: Bool) throws(WireError) -> CallOutcome {
        let (token, outcome, budget) = try backend.promise(method, loadTimeout: loadTimeout) { [weak self] in
            self?.budgetExpired(callToken: $0)
        }
        let waiter = Waiter(callToken: token, budgetToken: budget, strict: strict)
        if fetch?.profileId == profiles.profileId {
            fetch?.waiters.append(waiter)
        } else {
            startFetch(on: backend, waiters: [waiter], reason: method)
        }
        return outcome
    }

    private func startFetch(on backend: Backend, waiters: [Waiter], reason: String) {
        let profileId = profiles.profileId
        // A fetch for a profile the app has since left keeps running, but nobody waits on it.
        if let stale = fetch { answer(stale.waiters, failure: nil, reason: stale.reason) }
        fetch = Fetch(profileId: profileId, waiters: waiters, reason: reason)
        let knownTag = etag?.profileId == profileId ? etag?.value : nil
        backend.send(method: "GET", url: backend.url("profiles", profileId),
                     headers: RemoteSource.headers(profileId: profileId, etag: knownTag)) { [weak self] outcome in
            self?.backendAnswered(profileId, outcome)
        }
    }

    /// The backend's answer about `profileId`: merged in when it is still the current profile
    /// (a change emits `did_load_latest_profile`), then every waiting call is answered.
    private func backendAnswered(_ profileId: String, _ outcome: HTTPOutcome) {
        let failure = merge(outcome, profileId: profileId)
        guard let current = fetch, current.profileId == profileId else { return }
        fetch = nil
        answer(current.waiters, failure: failure, reason: current.reason)
    }

    /// The budget ran out first: the device's profile answers; the request goes on.
    private func budgetExpired(callToken: UInt64) {
        guard let index = fetch?.waiters.firstIndex(where: { $0.callToken == callToken }),
              let waiter = fetch?.waiters.remove(at: index) else { return }
        answer([waiter], failure: WireError(.timeout, "the backend did not answer within the load_timeout budget"), reason: nil)
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

    /// Answers the waiting calls: a strict one with the failure, the others with the device's
    /// profile (and one log event saying why). A fetch nobody waited for logs its failure.
    private func answer(_ waiters: [Waiter], failure: WireError?, reason: String?) {
        if let failure, waiters.isEmpty, let reason {
            log(.warn, "profile refresh (\(reason)) failed: \(failure.message)",
                details: [("reason", .string(reason)), ("underlying_error", .string(failure.code.rawValue))])
        }
        if let failure, waiters.contains(where: { !$0.strict }) {
            log(.warn, "profile served from the device: \(failure.message)", details: RemoteSource.fallbackDetails(source: "device", failure: failure))
        }
        let response = profiles.response()
        for waiter in waiters {
            timers.cancel(waiter.budgetToken)
            if let failure, waiter.strict {
                calls.complete(waiter.callToken, .failure(failure))
            } else {
                calls.complete(waiter.callToken, response)
            }
        }
    }
}
