import PaywireModel
import PaywireWire

/// A wall clock stopped at one instant (`store.now` of the test store), for reproducible
/// purchase times; elapsed time still counts, by `elapsed`'s monotonic clock, so access judged
/// by `AccessClock` still ends.
final class FixedClock: Clock {
    private let milliseconds: Int
    private let elapsed: Clock

    init(milliseconds: Int, elapsed: Clock) {
        self.milliseconds = milliseconds
        self.elapsed = elapsed
    }

    func nowMilliseconds() -> Int { milliseconds }
    func monotonicMilliseconds() -> Int { elapsed.monotonicMilliseconds() }
}

/// The system's wall clock moved by a fixed amount (`clock_offset_ms`), so a whole suite runs on
/// another date; the monotonic clock is the system's, since elapsed time does not move.
final class ShiftedClock: Clock {
    private let system: Clock
    private let offset: Int

    init(_ system: Clock, by offset: Int) {
        self.system = system
        self.offset = offset
    }

    func nowMilliseconds() -> Int { system.nowMilliseconds() + offset }
    func monotonicMilliseconds() -> Int { system.monotonicMilliseconds() }
}
