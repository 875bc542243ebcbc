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

    init(clock: Clock, lastBackendTime: Int) {
        self.clock = clock
        anchor = (max(clock.nowMilliseconds(), lastBackendTime), clock.monotonicMilliseconds())
    }

    /// Now, as access is judged (ms since the epoch).
    func now() -> Int {
        let counted = anchor.time + max(0, clock.monotonicMilliseconds() - anchor.monotonic)
        return anchoredByBackend ? counted : max(clock.nowMilliseconds(), counted)
    }

    /// The backend said it is `time`.
    func backendSaid(_ time: Int) {
        anchor = (time, clock.monotonicMilliseconds())
        anchoredByBackend = true
    }

    /// The backend's time as last heard (nil before any answer in this run), for keeping.
    var backendTime: Int? { anchoredByBackend ? now() : nil }
}
