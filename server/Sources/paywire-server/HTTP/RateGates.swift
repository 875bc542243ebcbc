import Hummingbird
import ServerDomain
import Synchronization

/// The rate limits of this replica: requests per client address (`--rate-limit-address`), per
/// operator key (`--rate-limit-operator-key`) and per device, that is per profile credential
/// (`--rate-limit-device`), each off when nil; and the new profile credentials handed to each
/// client address (`--new-credentials-per-address`). A request over its limit is answered
/// `429 rate_limited` with `Retry-After`, which the core's clients wait on.
final class RateGates: Sendable {
    /// New credentials a client address is handed a minute, unless told (`0` turns it off).
    static let defaultNewCredentialsPerMinute = 60

    private let addresses: Mutex<RateLimiter?>
    private let operatorKeys: Mutex<RateLimiter?>
    private let devices: Mutex<RateLimiter?>
    private let mints: Mutex<RateLimiter?>
    private let clock: any ServerClock

    /// `perAddress`, `perOperatorKey`, `perDevice`: requests a second, with bursts of five
    /// seconds' worth. `newCredentialsPerMinute`: a minute's worth at once, then that many a minute.
    init(perAddress: Int?, perOperatorKey: Int?, perDevice: Int? = nil, newCredentialsPerMinute: Int? = nil, clock: any ServerClock) {
        addresses = Mutex(perAddress.map { RateLimiter(perSecond: $0, burst: $0 * 5) })
        operatorKeys = Mutex(perOperatorKey.map { RateLimiter(perSecond: $0, burst: $0 * 5) })
        devices = Mutex(perDevice.map { RateLimiter(perSecond: $0, burst: $0 * 5) })
        mints = Mutex(newCredentialsPerMinute.map { RateLimiter(perMinute: $0, burst: $0) })
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

    /// A device's request: keyed by its credential's digest (never the credential itself), so
    /// one device cannot spend its address's whole budget, and devices behind one address (a
    /// carrier's NAT) are limited each on its own.
    func device(credentialDigest: String) -> Response? {
        let now = clock.nowMilliseconds()
        return Self.refusal(devices.withLock { $0?.take(credentialDigest, now: now) }, "this device")
    }

    /// Takes a new credential from `address`'s allowance: nil when there was one, else the
    /// seconds to wait.
    func mint(from address: String) -> Int? {
        let now = clock.nowMilliseconds()
        return mints.withLock { $0?.take(address, now: now) }
    }

    /// The seconds `address` would wait for a new credential now; nil when it may have one.
    func mintWait(from address: String) -> Int? {
        let now = clock.nowMilliseconds()
        return mints.withLock { $0?.wait(address, now: now) }
    }

    private static func refusal(_ wait: Int?, _ who: String) -> Response? {
        guard let wait else { return nil }
        var response = ErrorBody.response(.tooManyRequests, code: "rate_limited", "too many requests from \(who): retry in \(wait) s")
        response.headers[.retryAfter] = String(wait)
        return response
    }
}
