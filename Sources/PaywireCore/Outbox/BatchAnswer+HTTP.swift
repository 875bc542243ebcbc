import PaywireModel
import PaywireWire

extension Outbox {
    /// What an HTTP exchange means for a batch.
    static func answer(_ outcome: HTTPOutcome, now: WideInt) -> BatchAnswer {
        switch outcome {
        case .timedOut:
            return .retryLater(retryAfterMilliseconds: nil, reason: "timed out")
        case .failed(let code, _):
            return .retryLater(retryAfterMilliseconds: nil, reason: code)
        case .response(let response):
            switch response.status {
            case 200..<300: return .accepted
            // A profile another device holds (or whose credential this device lost): the backend
            // will never take these records from this device; the api key still holds.
            case 401 where Outbox.isProfileCredentialRefusal(response): return .refused(status: 401)
            case 401, 403: return .unauthorized(status: response.status)
            case 413: return .tooLarge
            case _ where response.isRetryable:
                return .retryLater(retryAfterMilliseconds: retryAfter(response.header("retry-after"), now: now),
                                   reason: "HTTP \(response.status)")
            case 400..<500: return .refused(status: response.status)
            default: return .retryLater(retryAfterMilliseconds: nil, reason: "HTTP \(response.status)")
            }
        }
    }

    /// Whether a 401 refuses the profile's credential rather than the api key.
    static func isProfileCredentialRefusal(_ response: HTTPResponse) -> Bool {
        RemoteSource.errorCode(response.body).flatMap(APIErrorCode.init(rawValue:))?.refusesCredential == true
    }

    /// `Retry-After` as a delay: delta-seconds (at most a day), or an HTTP date.
    static func retryAfter(_ value: String?, now: WideInt) -> WideInt? {
        guard let value = value?.trimmingSpaces, !value.isEmpty else { return nil }
        if let seconds = WideInt(value), seconds >= 0 { return min(seconds, Milliseconds.day / Milliseconds.second) * Milliseconds.second }
        return HTTPDate.parse(value).map { max(0, $0.clampedSubtracting(now)) }
    }
}

private extension String {
    var trimmingSpaces: String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
