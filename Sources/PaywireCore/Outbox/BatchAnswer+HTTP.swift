extension Outbox {
    /// What an HTTP exchange means for a batch.
    static func answer(_ outcome: HTTPOutcome, now: Int) -> BatchAnswer {
        switch outcome {
        case .timedOut:
            return .retryLater(retryAfterMilliseconds: nil, reason: "timed out")
        case .failed(let code, _):
            return .retryLater(retryAfterMilliseconds: nil, reason: code)
        case .response(let response):
            switch response.status {
            case 200..<300: return .accepted
            case 401, 403: return .unauthorized(status: response.status)
            case 413: return .tooLarge
            case 408, 429, 500..<600:
                return .retryLater(retryAfterMilliseconds: retryAfter(response.header("retry-after"), now: now),
                                   reason: "HTTP \(response.status)")
            case 400..<500: return .refused(status: response.status)
            default: return .retryLater(retryAfterMilliseconds: nil, reason: "HTTP \(response.status)")
            }
        }
    }

    /// `Retry-After` as a delay: delta-seconds, or an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func retryAfter(_ value: String?, now: Int) -> Int? {
        guard let value = value?.trimmingSpaces, !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return min(seconds, 86_400) * 1000 }
        let parts = value.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
              let month = months.firstIndex(of: String(parts[2])) else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        let text = padded(year, 4) + "-" + padded(month + 1, 2) + "-" + padded(day, 2) + "T"
            + padded(time[0], 2) + ":" + padded(time[1], 2) + ":" + padded(time[2], 2) + ".000Z"
        guard let at = ISODate.parse(text) else { return nil }
        return max(0, at - now)
    }
}

private extension String {
    var trimmingSpaces: String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// `value` with leading zeros to `width` digits.
private func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
