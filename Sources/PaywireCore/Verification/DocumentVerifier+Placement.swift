import PaywireModel
import PaywireWire

/// Placements and onboardings as signed documents: a fresh answer judged when it arrives, a
/// cached copy whenever it is read back.
extension DocumentVerifier {
    /// A fetched placement judged: its kept answer's signature checked for its kind, placement
    /// id and ETag, a certified signing key at `time` (when it arrived; a copy read back, when
    /// it was fetched). No answer kept (a copy cached before verification was asked, or edited
    /// out) is `missing`.
    func judge(_ fetched: RemoteSource.Fetched, at time: WideInt) -> (fetched: RemoteSource.Fetched, failure: Failure?) {
        var judged = fetched
        let failure = fetched.answer.map {
            check(fetched.signed, kind: fetched.key.kind.collection, id: fetched.key.id, revision: fetched.etag ?? "", document: $0,
                  at: time)
        } ?? .missing
        judged.verification = failure == nil ? .verified : .failed
        return (judged, failure)
    }

    /// The backend's fresh answer `response` for `fetched`, judged: the copy marked, and in
    /// enforced mode a failing one refused (thrown) with `response_verification_failed` (the
    /// cache, then the bundle, answer instead). A failure is logged either way.
    func judgeFresh(_ fetched: RemoteSource.Fetched, response: HTTPResponse, log: Log) throws(WireError) -> RemoteSource.Fetched {
        var fetched = fetched
        fetched.answer = response.body
        let signature = DocumentVerifier.signature(of: response)
        if case .success(let signed) = signature { fetched.signed = signed }
        var (judged, failure) = judge(fetched, at: now)
        if case .failure(let unreadable) = signature { failure = unreadable }
        guard let failure else { return judged }
        let key = fetched.key
        let enforced = mode == .enforced
        let message = "the backend's \(key.kind == .paywall ? "placement" : "onboarding") '\(key.id)' is not signed by a key "
            + "response_verification lists (\(failure.rawValue)): " + (enforced ? "it is refused" : "it serves, marked verification failed")
        let details: [(key: String, value: JSONValue)] = [("placement_id", .string(key.id)), ("document", .string(key.kind.collection)),
                                                          ("reason", .string(failure.rawValue)), ("mode", .string(mode.rawValue))]
        log(enforced ? .error : .warn, message, details: details)
        guard !enforced else {
            throw WireError(.responseVerificationFailed, message,
                            details: JSONObject(details + [("underlying_error", .string(HTTPOutcome.unverifiedCode))]))
        }
        judged.verification = .failed
        return judged
    }
}
