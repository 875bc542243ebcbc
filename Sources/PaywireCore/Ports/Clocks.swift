import PaywireModel
import PaywireWire

#if canImport(Glibc)
import Glibc
#endif

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
