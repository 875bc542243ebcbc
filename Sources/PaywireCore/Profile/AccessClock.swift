import PaywireModel
import PaywireWire

/// The time access is judged by. Once the backend has answered, it is the backend's time
/// (its `Date` header) plus the time the device has counted since on a clock the user cannot
/// move: turning the wall clock back does not bring an expired subscription back, and
/// turning it forward does not end one early. Before any backend answer in this run it is the
/// device's wall clock, never earlier than the start of the run plus the time counted since,
/// nor than the last backend time the profile kept.
final class AccessClock {
    private let clock: Clock
    private var anchor: (time: Int, monotonic: Int)
    private var anchoredByBackend = false
    /// Told when the backend's time arrives (the profile store re-judges access then).
    private var listener: ((Int) -> Void)?

    init(clock: Clock) {
        self.clock = clock
        anchor = (clock.nowMilliseconds(), clock.monotonicMilliseconds())
    }

    /// Access is never judged earlier than `time` (the last backend time a profile kept).
    func raiseFloor(to time: Int) {
        guard !anchoredByBackend, time > anchor.time else { return }
        anchor = (time, clock.monotonicMilliseconds())
    }

    /// `listener` hears each backend time (one listener: the profile store that judges access).
    func listen(_ listener: @escaping (Int) -> Void) { self.listener = listener }

    /// Now, as access is judged (ms since the epoch).
    func now() -> Int {
        let counted = anchor.time + max(0, clock.monotonicMilliseconds() - anchor.monotonic)
        return anchoredByBackend ? counted : max(clock.nowMilliseconds(), counted)
    }

    /// The backend said it is `time`.
    func backendSaid(_ time: Int) {
        anchor = (time, clock.monotonicMilliseconds())
        anchoredByBackend = true
        listener?(time)
    }
}
