// get_profile with a remote source: ask the backend what it knows of the profile (purchases
// made elsewhere), merge it in, and answer within the load_timeout budget; when the backend
// fails or is late, the device's profile answers, with a log event saying why.

/// One backend request for the profile, shared by every `get_profile` call meanwhile.
struct ProfileFetch: Sendable {
    let profileId: String
    var waiters: [(callToken: UInt64, budgetToken: UInt64)]
}

extension Client {
    func getRemoteProfile(_ request: ProfileRequest) throws(WireError) -> CallOutcome {
        let (token, outcome, budget) = try deferForBackend("get_profile", loadTimeout: request.loadTimeout) { .profileBudget(callToken: $0) }
        if profileFetch?.profileId == profile.profileId {
            profileFetch?.waiters.append((token, budget))
            return outcome
        }
        let profileId = profile.profileId
        // A fetch for a profile the app has since left keeps running, but nobody waits on it.
        if let stale = profileFetch { answerProfileWaiters(stale.waiters, failure: nil) }
        profileFetch = ProfileFetch(profileId: profileId, waiters: [(token, budget)])
        let etag = profileETag?.profileId == profileId ? profileETag?.etag : nil
        sendToBackend(.profile(profileId), method: "GET",
                      url: RemoteSource.url(baseURL: remote?.baseURL ?? "", collection: "profiles", id: profileId),
                      headers: RemoteSource.headers(profileId: profileId, etag: etag))
        return outcome
    }

    /// The backend's answer about `profileId`: merged in when it is still the current profile
    /// (a change emits `did_load_latest_profile`), then every waiting call is answered.
    func finishProfileFetch(_ profileId: String, outcome: HTTPOutcome) {
        var failure: WireError?
        switch outcome {
        case .timedOut:
            failure = WireError(.timeout, "the backend did not answer in time")
        case .failed(let code, let message):
            failure = WireError(.networkFailed, message, details: JSONObject([("underlying_error", .string(code))]))
        case .response(let response):
            switch response.status {
            case 200:
                do throws(WireError) {
                    let snapshot = try RemoteProfile.parse(response.body)
                    if profile.profileId == profileId {
                        let next = RemoteProfile.merge(snapshot, into: profile)
                        if next != profile { failure = saveProfile(next) }
                        // An answer that could not be kept is not remembered as seen: the next
                        // request must not be answered 304 for it.
                        if failure == nil, let etag = response.header("etag") { profileETag = (profileId, etag) }
                    }
                } catch {
                    failure = error
                }
            case 304, 404:
                break  // nothing new; a profile the backend has not met yet is the device's own
            default:
                failure = WireError(.networkFailed, "the backend answered HTTP \(response.status)",
                                    details: JSONObject([("status", .number(JSONNumber(response.status)))]))
            }
        }
        guard let fetch = profileFetch, fetch.profileId == profileId else { return }
        profileFetch = nil
        answerProfileWaiters(fetch.waiters, failure: failure)
    }

    /// The budget ran out first: the device's profile answers; the request goes on.
    func profileBudgetExpired(callToken: UInt64) {
        guard let index = profileFetch?.waiters.firstIndex(where: { $0.callToken == callToken }),
              let waiter = profileFetch?.waiters.remove(at: index) else { return }
        answerProfileWaiters([waiter], failure: WireError(.timeout, "the backend did not answer within the load_timeout budget"))
    }

    private func answerProfileWaiters(_ waiters: [(callToken: UInt64, budgetToken: UInt64)], failure: WireError?) {
        guard !waiters.isEmpty else { return }
        if let failure {
            log(.warn, "profile served from the device: \(failure.message)", details: Client.fallbackDetails(source: "device", failure: failure))
        }
        let response = profileResponse()
        for waiter in waiters {
            timers.removeValue(forKey: waiter.budgetToken)
            completions?.complete(token: waiter.callToken, response: response)
        }
    }
}
