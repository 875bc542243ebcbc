import PaywireModel
import PaywireWire

/// The backend's profile, fetched: `GET {base_url}/v1/profiles/{id}`, revalidated by the ETag of
/// the last answer that was kept, one request in flight at a time. Asking again for the profile
/// being fetched waits for the same answer; asking for another profile (the app switched)
/// abandons the first fetch's askers at once, and its answer, when it comes, goes nowhere.
final class ProfileFetch {
    /// What the backend said, for the profile that was asked for.
    enum Outcome {
        /// 200: the profile, the ETag to keep once the profile was applied, and how its signature
        /// was judged.
        case fetched(RemoteProfile.Snapshot, etag: String?, trust: AnswerTrust)
        /// 304, or 404 (a profile the backend has not met yet is the device's own).
        case nothingNew(AnswerTrust)
        case failed(WireError)
        /// The app moved to another profile before the answer came.
        case abandoned
    }

    typealias Reply = (Outcome) -> Void

    private let backend: Backend
    /// The request in flight: whose profile, and who waits for it.
    private var inFlight: (profileId: String, replies: [Reply])?
    /// The ETag of the profile last kept, for revalidation.
    private var etag: (profileId: String, value: String)?

    init(backend: Backend) { self.backend = backend }

    /// Whether `profileId`'s profile is being fetched.
    func isFetching(_ profileId: String) -> Bool { inFlight?.profileId == profileId }

    /// Fetches `profileId`'s profile; `reply` hears the outcome, once, later.
    func fetch(_ profileId: String, reply: @escaping Reply) {
        if inFlight?.profileId == profileId {
            inFlight?.replies.append(reply)
            return
        }
        if let stale = inFlight { stale.replies.forEach { $0(.abandoned) } }
        inFlight = (profileId, [reply])
        let knownTag = etag?.profileId == profileId ? etag?.value : nil
        backend.send(method: "GET", url: backend.url("profiles", profileId),
                     headers: RemoteSource.headers(profileId: profileId, etag: knownTag), carriesAccess: true,
                     profileId: profileId) { [self] outcome in
            self.answered(profileId, outcome)
        }
    }

    /// Drops the replies waiting for the fetch in flight, unanswered (the client is being freed).
    func cancelAll() { inFlight = nil }

    /// The profile of `etag` was kept: the next fetch may be answered 304 for it. An answer that
    /// could not be kept is not remembered as seen.
    func keep(etag value: String?, for profileId: String) {
        if let value { etag = (profileId, value) }
    }

    /// Forgets `profileId`'s ETag: the next fetch asks for the whole profile, not a 304.
    func forgetETag(of profileId: String) {
        if etag?.profileId == profileId { etag = nil }
    }

    private func answered(_ profileId: String, _ outcome: HTTPOutcome) {
        guard let current = inFlight, current.profileId == profileId else { return }
        inFlight = nil
        let result = ProfileFetch.interpret(outcome)
        current.replies.forEach { $0(result) }
    }

    private static func interpret(_ outcome: HTTPOutcome) -> Outcome {
        switch outcome {
        case .timedOut:
            return .failed(WireError(.timeout, "the backend did not answer in time"))
        case .failed(let code, let message):
            return .failed(HTTPOutcome.transportError(code: code, message: message))
        case .response(let response):
            switch response.status {
            case 200:
                do throws(WireError) {
                    return .fetched(try RemoteProfile.parse(response.body), etag: response.header("etag"), trust: response.trust)
                } catch {
                    return .failed(error)
                }
            case 304, 404:
                return .nothingNew(response.trust)
            default:
                return .failed(WireError(.networkFailed, "the backend answered HTTP \(response.status)",
                                         details: JSONObject([("status", .number(JSONNumber(response.status)))])))
            }
        }
    }
}
