import PaywireModel
import PaywireWire

/// A wall clock stopped at one instant (`store.now` of the test store), for reproducible
/// purchase times; elapsed time still counts, by `elapsed`'s monotonic clock, so access judged
/// by `AccessClock` still ends.
final class FixedClock: Clock {
    private let milliseconds: WideInt
    private let elapsed: Clock

    init(milliseconds: WideInt, elapsed: Clock) {
        self.milliseconds = milliseconds
        self.elapsed = elapsed
    }

    func nowMilliseconds() -> WideInt { milliseconds }
    func monotonicMilliseconds() -> WideInt { elapsed.monotonicMilliseconds() }
}

/// The system's wall clock moved by a fixed amount (`clock_offset_ms`), so a whole suite runs on
/// another date; the monotonic clock is the system's, since elapsed time does not move.
final class ShiftedClock: Clock {
    private let system: Clock
    private let offset: WideInt

    init(_ system: Clock, by offset: WideInt) {
        self.system = system
        self.offset = offset
    }

    func nowMilliseconds() -> WideInt { system.nowMilliseconds().clampedAdding(offset) }
    func monotonicMilliseconds() -> WideInt { system.monotonicMilliseconds() }
}
