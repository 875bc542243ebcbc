import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// A clock whose wall time and elapsed count the test moves by hand.
final class ManualClock: Clock {
    var wall: Int
    var elapsed = 0
    init(wall: Int) { self.wall = wall }
    func nowMilliseconds() -> Int { wall }
    func monotonicMilliseconds() -> Int { elapsed }
}

/// How access is judged in time: the backend's clock plus what the device counted.
@Suite struct AccessClockTests {
    @Test func beforeTheBackendAnswersTheWallClockCounts() {
        let clock = ManualClock(wall: 10_000)
        let access = AccessClock(clock: clock, timers: Timers(scheduler: nil))
        clock.wall = 50_000
        #expect(access.now() == 50_000)
    }

    @Test func aWallClockMovedBackDoesNotTurnTimeBack() {
        let clock = ManualClock(wall: 10_000)
        let access = AccessClock(clock: clock, timers: Timers(scheduler: nil))
        clock.elapsed = 500
        clock.wall = 1_000
        #expect(access.now() == 10_500)
    }

    @Test func neverEarlierThanTheLastBackendTimeKept() {
        let access = AccessClock(clock: ManualClock(wall: 1_000), timers: Timers(scheduler: nil))
        access.raiseFloor(to: 90_000)
        #expect(access.now() == 90_000)
    }

    @Test func onceTheBackendAnsweredItsTimePlusElapsedCountsWhateverTheWallSays() {
        let clock = ManualClock(wall: 10_000)
        let access = AccessClock(clock: clock, timers: Timers(scheduler: nil))
        access.backendSaid(1_000_000)
        clock.elapsed = 250
        clock.wall = 99_999_999
        #expect(access.now() == 1_000_250)
    }

    @Test func theDateHeaderIsReadAsIMFFixdate() {
        #expect(HTTPDate.parse("Mon, 15 Jan 2024 10:30:00 GMT") == ISODate.parse("2024-01-15T10:30:00Z"))
        #expect(HTTPDate.parse("Monday, 15-Jan-24 10:30:00 GMT") == nil)
        #expect(HTTPDate.parse("Mon, 15 Jan 2024 10:30:00 UTC") == nil)
        #expect(HTTPDate.parse("") == nil)
    }

    @Test func anAlarmRingsOnceAccessTimeReachesItAndABackendTimeMovesIt() {
        let clock = ManualClock(wall: 10_000)
        let scheduler = ManualScheduler()
        let timers = Timers(scheduler: scheduler)
        let access = AccessClock(clock: clock, timers: timers)
        var rung = 0
        _ = access.setAlarm(at: 70_000) { rung += 1 }
        #expect(scheduler.scheduled.map(\.milliseconds) == [60_000])
        // The backend says it is already later: the alarm is set again, for now.
        access.backendSaid(80_000)
        #expect(scheduler.scheduled.map(\.milliseconds) == [60_000, 0])
        timers.fire(scheduler.scheduled[0].token)      // the old timer was cancelled
        #expect(rung == 0)
        timers.fire(scheduler.scheduled[1].token)
        #expect(rung == 1)
    }

    @Test func aFarAlarmIsSetADayAheadAtMostAndRingsOnlyWhenItsTimeCame() {
        let clock = ManualClock(wall: 0)
        let scheduler = ManualScheduler()
        let timers = Timers(scheduler: scheduler)
        let access = AccessClock(clock: clock, timers: timers)
        var rung = false
        let day = Milliseconds.day
        _ = access.setAlarm(at: 3 * day) { rung = true }
        #expect(scheduler.scheduled.map(\.milliseconds) == [day])
        clock.elapsed = day
        timers.fire(scheduler.scheduled[0].token)
        #expect(!rung)
        #expect(scheduler.scheduled.map(\.milliseconds) == [day, day])
        let cancelled = access.setAlarm(at: day + 1) { rung = true }
        access.cancelAlarm(cancelled)
        clock.elapsed = 3 * day
        timers.fire(scheduler.scheduled[2].token)
        #expect(!rung)
        timers.fire(scheduler.scheduled[1].token)
        #expect(rung)
    }
}
