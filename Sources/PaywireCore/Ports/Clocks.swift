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
