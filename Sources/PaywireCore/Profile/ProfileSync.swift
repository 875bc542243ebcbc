import PaywireModel
import PaywireWire

/// The calls that wait for the backend's profile: `get_profile` merges the backend's answer and
/// answers within its `load_timeout` budget (when the backend fails or is late, the device's
/// profile answers, with a log event saying why); `refresh_profile` waits for the backend and
/// fails when it does. Concurrent calls share one fetch (`ProfileStore.refreshFromBackend`).
final class ProfileSync {
    private let backend: Backend?
    private let profiles: ProfileStore
    private let timers: Timers
    private let calls: Calls
    private let log: Log
    /// The calls waiting, by call token: their budget timer, and whether the backend's failure
    /// fails them (`refresh_profile`) or the device's profile answers them (`get_profile`).
    private var waiting: [UInt64: (budget: UInt64, strict: Bool)] = [:]

    init(backend: Backend?, profiles: ProfileStore, timers: Timers, calls: Calls, log: Log) {
        self.backend = backend
        self.profiles = profiles
        self.timers = timers
        self.calls = calls
        self.log = log
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

    private func warnIfClamped(_ requested: Double?) {
        guard let requested else { return }
        log(.warn, "load_timeout \(requested) s raised to the minimum of \(PlacementRequest.minimumLoadTimeout) s",
            details: [("field", .string("load_timeout"))])
    }

    private func wait(on backend: Backend, method: String, loadTimeout: Double, strict: Bool) throws(WireError) -> CallOutcome {
        let (token, outcome, budget) = try backend.promise(method, loadTimeout: loadTimeout) { [self] in
            self.answer($0, failure: WireError(.timeout, "the backend did not answer within the load_timeout budget"))
        }
        waiting[token] = (budget, strict)
        profiles.refreshFromBackend { [self] failure in self.answer(token, failure: failure) }
        return outcome
    }

    /// Answers a waiting call, once: a strict one with the failure, the others with the device's
    /// profile (and a log event saying why, when the backend failed them).
    private func answer(_ token: UInt64, failure: WireError?) {
        guard let call = waiting.removeValue(forKey: token) else { return }
        timers.cancel(call.budget)
        if let failure, call.strict {
            calls.complete(token, .failure(failure))
            return
        }
        if let failure {
            log(.warn, "profile served from the device: \(failure.message)", details: RemoteSource.fallbackDetails(source: "device", failure: failure))
        }
        calls.complete(token, profiles.response())
    }
}
