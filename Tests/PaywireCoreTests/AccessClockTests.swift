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
        let access = AccessClock(clock: clock)
        clock.wall = 50_000
        #expect(access.now() == 50_000)
    }

    @Test func aWallClockMovedBackDoesNotTurnTimeBack() {
        let clock = ManualClock(wall: 10_000)
        let access = AccessClock(clock: clock)
        clock.elapsed = 500
        clock.wall = 1_000
        #expect(access.now() == 10_500)
    }

    @Test func neverEarlierThanTheLastBackendTimeKept() {
        let access = AccessClock(clock: ManualClock(wall: 1_000))
        access.raiseFloor(to: 90_000)
        #expect(access.now() == 90_000)
    }

    @Test func onceTheBackendAnsweredItsTimePlusElapsedCountsWhateverTheWallSays() {
        let clock = ManualClock(wall: 10_000)
        let access = AccessClock(clock: clock)
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
}
