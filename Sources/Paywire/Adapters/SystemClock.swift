import PaywireCore

import CPosix

/// The system's clocks, handed to each client: the wall clock (`CLOCK_REALTIME`) and one that
/// only moves forward, sleep included (`CLOCK_BOOTTIME`), which the user cannot set back.
final class SystemClock: Clock {
    func nowMilliseconds() -> Int { Self.read(CLOCK_REALTIME) }
    func monotonicMilliseconds() -> Int { Self.read(CLOCK_BOOTTIME) }

    private static func read(_ id: clockid_t) -> Int {
        var now = timespec()
        clock_gettime(id, &now)
        return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
    }
}

/// The system's cryptographically secure generator (`getrandom`, through Swift's
/// `SystemRandomNumberGenerator`), handed to each client for identifiers and jitter.
final class SystemRandom: RandomSource {
    func next() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }
}
