import Hummingbird
import Synchronization

/// The rate limits of this replica: per client address (`--rate-limit-address`) and per
/// operator key (`--rate-limit-operator-key`), each off when nil. A request over its limit is
/// answered `429 rate_limited` with `Retry-After`, which the core's clients wait on.
final class RateGates: Sendable {
    private let addresses: Mutex<RateLimiter?>
    private let operatorKeys: Mutex<RateLimiter?>
    private let clock: any ServerClock

    /// `perAddress`, `perOperatorKey`: requests a second, with bursts of five seconds' worth.
    init(perAddress: Int?, perOperatorKey: Int?, clock: any ServerClock) {
        addresses = Mutex(perAddress.map { RateLimiter(perSecond: $0, burst: $0 * 5) })
        operatorKeys = Mutex(perOperatorKey.map { RateLimiter(perSecond: $0, burst: $0 * 5) })
        self.clock = clock
    }

    func address(_ address: String) -> Response? {
        let now = clock.nowMilliseconds()
        return Self.refusal(addresses.withLock { $0?.take(address, now: now) }, "this address")
    }

    func operatorKey(_ id: String) -> Response? {
        let now = clock.nowMilliseconds()
        return Self.refusal(operatorKeys.withLock { $0?.take(id, now: now) }, "operator key '\(id)'")
    }

    private static func refusal(_ wait: Int?, _ who: String) -> Response? {
        guard let wait else { return nil }
        var response = ErrorBody.response(.tooManyRequests, code: "rate_limited", "too many requests from \(who): retry in \(wait) s")
        response.headers[.retryAfter] = String(wait)
        return response
    }
}
