import PaywireModel
import PaywireWire

/// `redeem_web_purchase {url, load_timeout?}`: a web purchase's link redeemed into the current
/// profile (`POST /v1/redemptions`). The backend's answer carries the profile as it now stands,
/// which is merged like every backend profile: on `redeemed` the web purchase's grant arrives
/// with a `did_load_latest_profile` before the call's answer. Nothing is kept on the device: a
/// call that failed is simply made again (the backend answers a second redemption by the same
/// profile `already_redeemed`).
final class WebRedemptions {
    private let backend: Backend?
    private let profiles: ProfileStore
    private let timers: Timers
    private let calls: Calls
    private let log: Log
    /// The calls waiting, by call token: their budget timer.
    private var waiting: [UInt64: UInt64] = [:]

    init(backend: Backend?, profiles: ProfileStore, timers: Timers, calls: Calls, log: Log) {
        self.backend = backend
        self.profiles = profiles
        self.timers = timers
        self.calls = calls
        self.log = log
    }

    /// Sends the link's token for the current profile; the call answers when the backend does,
    /// or fails with `timeout` when `loadTimeout` passes first (the answer, when it comes, is
    /// still merged: the backend may have moved the purchase).
    func redeem(url: String, loadTimeout: Double) throws(WireError) -> CallOutcome {
        let token = try RedemptionLink.token(in: url)
        guard let backend else {
            throw WireError(.invalidState, "redeem_web_purchase needs a backend, and no transport is configured")
        }
        let profileId = profiles.profileId
        let (callToken, outcome, budget) = try backend.promise("redeem_web_purchase", loadTimeout: loadTimeout) { [self] in
            self.answer($0, .failure(WireError(.timeout, "the backend did not answer the redemption within the load_timeout budget")))
        }
        waiting[callToken] = budget
        backend.send(method: "POST", url: backend.url(route: "redemptions"), headers: [("accept", "application/json")],
                     body: RedemptionRequest(token: token, profileId: profileId).encode(), carriesAccess: true,
                     profileId: profileId) { [self] outcome in
            answer(callToken, answered(outcome, profileId: profileId))
        }
        return outcome
    }

    /// What the backend said, merged: the call's answer.
    private func answered(_ outcome: HTTPOutcome, profileId: String) -> CallResponse {
        switch outcome {
        case .timedOut:
            return .failure(WireError(.networkFailed, "the backend did not answer the redemption in time"))
        case .failed(let code, let message):
            return .failure(HTTPOutcome.transportError(code: code, message: "the redemption could not reach the backend: \(message)"))
        case .response(let response) where response.status == 200:
            let result: RedemptionResult
            let snapshot: RemoteProfile.Snapshot
            do throws(WireError) {
                (result, snapshot) = try WebRedemptions.parse(response.body)
            } catch {
                return .failure(error)
            }
            if let error = profiles.applyBackend(snapshot, profileId: profileId, trust: response.trust) { return .failure(error) }
            if result != .redeemed {
                log(.info, "the web purchase link was not redeemed: \(result.rawValue)", details: [("result", .string(result.rawValue))])
            }
            let profile = profiles.current
            let now = profiles.accessNow()
            return .success { writer in
                writer.object { writer in
                    writer.member("result", result.rawValue)
                    writer.key("profile")
                    profile.write(to: &writer, now: now)
                }
            }
        case .response(let response):
            let code: ErrorCode = response.isRetryable ? .networkFailed : (response.status == 401 || response.status == 403 ? .unauthorized : .webPaymentFailed)
            return .failure(WireError(code, "the backend answered the redemption with HTTP \(response.status)",
                                      details: JSONObject([("status", .number(JSONNumber(response.status)))])))
        }
    }

    /// The answer's result and profile (`RedemptionAnswer`, the backend's own codec); anything
    /// else is `decoding_failed`.
    static func parse(_ body: [UInt8]) throws(WireError) -> (result: RedemptionResult, profile: RemoteProfile.Snapshot) {
        let (result, profile) = try RedemptionAnswer.decode(body)
        return (result, try RemoteProfile.parse(profile: profile))
    }

    /// Answers a waiting call, once.
    private func answer(_ callToken: UInt64, _ response: CallResponse) {
        guard let budget = waiting.removeValue(forKey: callToken) else { return }
        timers.cancel(budget)
        calls.complete(callToken, response)
    }
}
