import PaywireModel
import PaywireWire

/// The time access is judged by, and alarms set in that time. Once the backend has answered,
/// it is the backend's time (its `Date` header) plus the time the device has counted since on
/// a clock the user cannot move: turning the wall clock back does not bring an expired
/// subscription back, and turning it forward does not end one early. Before any backend answer
/// in this run it is the device's wall clock, never earlier than the start of the run plus the
/// time counted since, nor than the last backend time the profile kept.
///
/// An alarm rings when access time reaches its time. When the backend's time moves the clock,
/// every alarm is set again by it, so one whose time has now passed rings at once: the parts
/// that judge access by time need not be told that the clock moved.
final class AccessClock {
    private struct Alarm {
        let time: WideInt
        let work: () -> Void
        var timer: UInt64
    }

    /// A timer is set at most this far ahead, and set again when it fires early: a long timer is
    /// not trusted for months.
    private static let longestTimer = Milliseconds.day

    private let clock: Clock
    private let timers: Timers
    private var anchor: (time: WideInt, monotonic: WideInt)
    /// The last time the backend said it was (the profile keeps it as the next run's floor).
    private(set) var lastBackendTime: WideInt?
    private var alarms: [UInt64: Alarm] = [:]
    private var nextAlarm: UInt64 = 1

    init(clock: Clock, timers: Timers) {
        self.clock = clock
        self.timers = timers
        anchor = (clock.nowMilliseconds(), clock.monotonicMilliseconds())
    }

    /// Access is never judged earlier than `time` (the last backend time a profile kept).
    func raiseFloor(to time: WideInt) {
        guard lastBackendTime == nil, time > anchor.time else { return }
        anchor = (time, clock.monotonicMilliseconds())
    }

    /// Now, as access is judged (ms since the epoch).
    func now() -> WideInt {
        let counted = anchor.time.clampedAdding(max(0, clock.monotonicMilliseconds() - anchor.monotonic))
        return lastBackendTime == nil ? max(clock.nowMilliseconds(), counted) : counted
    }

    /// The backend said it is `time`: access time follows it, and so do the alarms.
    func backendSaid(_ time: WideInt) {
        anchor = (time, clock.monotonicMilliseconds())
        lastBackendTime = time
        for token in alarms.keys.sorted() { arm(token) }
    }

    /// Runs `work` once access time reaches `time`; the token cancels it.
    func setAlarm(at time: WideInt, _ work: @escaping () -> Void) -> UInt64 {
        let token = nextAlarm
        nextAlarm += 1
        alarms[token] = Alarm(time: time, work: work, timer: 0)
        arm(token)
        return token
    }

    /// Forgets the alarm; nothing rings for it.
    func cancelAlarm(_ token: UInt64) {
        guard let alarm = alarms.removeValue(forKey: token) else { return }
        timers.cancel(alarm.timer)
    }

    /// Drops every alarm without ringing it (the client is being freed).
    func cancelAll() { alarms.removeAll() }

    private func arm(_ token: UInt64) {
        guard var alarm = alarms[token] else { return }
        timers.cancel(alarm.timer)
        let delay = min(max(0, alarm.time.clampedSubtracting(now())), AccessClock.longestTimer)
        alarm.timer = timers.schedule(after: delay) { [self] in self.ring(token) }
        alarms[token] = alarm
    }

    private func ring(_ token: UInt64) {
        guard let alarm = alarms[token] else { return }
        guard now() >= alarm.time else { return arm(token) }
        alarms.removeValue(forKey: token)
        alarm.work()
    }
}
