#if canImport(Glibc)
import Glibc
#endif

/// The wall clock, for subscription start and expiry, and a count of elapsed time the user
/// cannot move. A port so tests can fix "now".
protocol Clock: AnyObject {
    /// Milliseconds since the Unix epoch.
    func nowMilliseconds() -> Int
    /// Milliseconds on a clock that only moves forward, sleep included (not the wall clock).
    func monotonicMilliseconds() -> Int
}

extension Clock {
    func monotonicMilliseconds() -> Int { SystemClock.read(CLOCK_BOOTTIME) }
}

/// The system's real-time clock.
final class SystemClock: Clock {
    func nowMilliseconds() -> Int { SystemClock.read(CLOCK_REALTIME) }

    static func read(_ id: clockid_t) -> Int {
        var now = timespec()
        clock_gettime(id, &now)
        return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
    }
}

/// A wall clock stopped at one instant (`store.now` of the test store), for reproducible
/// purchase times; elapsed time still counts, so access judged by `AccessClock` still ends.
final class FixedClock: Clock {
    private let milliseconds: Int
    init(milliseconds: Int) { self.milliseconds = milliseconds }
    func nowMilliseconds() -> Int { milliseconds }
}

/// Runs core work later. The boundary implements it with a timer that calls
/// `Client.timerFired(_:)` under the client's lock; tests fire tokens by hand.
public protocol TimerScheduler: AnyObject, Sendable {
    /// Asks for `Client.timerFired(token)` after `milliseconds`.
    func schedule(afterMilliseconds milliseconds: Int, token: UInt64)
}
