import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// The delivery rules on their own: when batches leave, and what each answer leads to.
@Suite struct DeliveryMachineTests {
    static let settings = DeliveryMachine.Settings(flushIntervalMilliseconds: 10_000, flushAt: 20, exposureFlushDelayMilliseconds: 1000,
                                                   exposureFlushesPerMinute: 5, batchMaxRecords: 100,
                                                   retryMinMilliseconds: 1000, retryMaxMilliseconds: 300_000)

    func sending(_ ids: [String], queued: Int) -> DeliveryMachine {
        var machine = DeliveryMachine(settings: Self.settings)
        _ = machine.flushRequested(queued: queued)
        _ = machine.sent(ids)
        return machine
    }

    @Test func aFirstRecordSetsTheRegularFlushTimer() {
        var machine = DeliveryMachine(settings: Self.settings)
        #expect(machine.recorded(queued: 1, exposure: false, now: 0) == [.schedule(.flush, afterMilliseconds: 10_000)])
        #expect(machine.recorded(queued: 2, exposure: false, now: 5) == [])
    }

    @Test func enoughWaitingRecordsSendABatchAtOnce() {
        var machine = DeliveryMachine(settings: Self.settings)
        #expect(machine.recorded(queued: 20, exposure: false, now: 0) == [.send(.oldest(100))])
    }

    @Test func anExposureBringsTheFlushForward() {
        var machine = DeliveryMachine(settings: Self.settings)
        _ = machine.recorded(queued: 1, exposure: false, now: 0)
        #expect(machine.recorded(queued: 2, exposure: true, now: 100) == [.schedule(.flush, afterMilliseconds: 1000)])
    }

    @Test func earlyFlushesAreLimitedToFiveAMinute() {
        var machine = DeliveryMachine(settings: Self.settings)
        for index in 0..<5 {
            _ = machine.recorded(queued: 1, exposure: true, now: index * 2000)
            _ = machine.timerFired(.flush, queued: 1)
            _ = machine.sent(["r\(index)"])
            _ = machine.answered(.accepted, queued: 1, now: index * 2000 + 1, jitter: 0)
        }
        #expect(machine.recorded(queued: 1, exposure: true, now: 12_000) == [.schedule(.flush, afterMilliseconds: 10_000)])
        _ = machine.timerFired(.flush, queued: 1)
        _ = machine.sent(["late"])
        _ = machine.answered(.accepted, queued: 1, now: 22_000, jitter: 0)
        // A minute after the first early flush, exposures bring the flush forward again.
        #expect(machine.recorded(queued: 1, exposure: true, now: 61_000) == [.schedule(.flush, afterMilliseconds: 1000)])
    }

    @Test func nothingIsSentWhileABatchIsInFlight() {
        var machine = sending(["a"], queued: 1)
        #expect(machine.recorded(queued: 50, exposure: true, now: 0) == [])
        #expect(machine.flushRequested(queued: 50) == [])
    }

    @Test func anAcceptedBatchIsAcknowledgedByItsIds() {
        var machine = sending(["a", "b"], queued: 2)
        #expect(machine.answered(.accepted, queued: 2, now: 0, jitter: 0) == [.acknowledge(["a", "b"])])
    }

    @Test func anUrgentFlushDrainsTheQueueBatchAfterBatch() {
        var machine = sending(["a", "b"], queued: 5)
        #expect(machine.answered(.accepted, queued: 5, now: 0, jitter: 0) == [.acknowledge(["a", "b"]), .send(.oldest(100))])
    }

    @Test func aFewRecordsLeftWaitForTheInterval() {
        var machine = DeliveryMachine(settings: Self.settings)
        _ = machine.recorded(queued: 20, exposure: false, now: 0)
        _ = machine.sent(Array(repeating: "x", count: 1).enumerated().map { "r\($0.offset)" })
        #expect(machine.answered(.accepted, queued: 3, now: 0, jitter: 0) == [.acknowledge(["r0"]), .schedule(.flush, afterMilliseconds: 10_000)])
    }

    @Test func aFailureBacksOffWithinTheJitterRange() {
        var machine = sending(["a"], queued: 1)
        let actions = machine.answered(.retryLater(retryAfterMilliseconds: nil, reason: "HTTP 503"), queued: 1, now: 0, jitter: 0.5)
        #expect(actions.last == .schedule(.retry, afterMilliseconds: 1000))
        _ = machine.timerFired(.retry, queued: 1)
        _ = machine.sent(["a"])
        let second = machine.answered(.retryLater(retryAfterMilliseconds: nil, reason: "offline"), queued: 1, now: 0, jitter: 0.5)
        #expect(second.last == .schedule(.retry, afterMilliseconds: 1500))
    }

    @Test func backoffIsCappedAtTheMaximum() {
        var machine = sending(["a"], queued: 1)
        var last: [DeliveryMachine.Action] = []
        for _ in 0..<20 {
            last = machine.answered(.retryLater(retryAfterMilliseconds: nil, reason: "offline"), queued: 1, now: 0, jitter: 0.999)
            _ = machine.timerFired(.retry, queued: 1)
            _ = machine.sent(["a"])
        }
        guard case .schedule(.retry, let delay)? = last.last else { Issue.record("no retry"); return }
        #expect(delay <= 300_000 && delay > 299_000)
    }

    @Test func retryAfterIsHonouredWhenLongerThanTheBackoff() {
        var machine = sending(["a"], queued: 1)
        #expect(machine.answered(.retryLater(retryAfterMilliseconds: 30_000, reason: "HTTP 429"), queued: 1, now: 0, jitter: 0).last
                == .schedule(.retry, afterMilliseconds: 30_000))
    }

    @Test func newRecordsDoNotSendBeforeTheRetryIsDue() {
        var machine = sending(["a"], queued: 1)
        _ = machine.answered(.retryLater(retryAfterMilliseconds: nil, reason: "offline"), queued: 1, now: 0, jitter: 0)
        #expect(machine.recorded(queued: 500, exposure: true, now: 1) == [])
        #expect(machine.timerFired(.flush, queued: 500) == [])
        #expect(machine.timerFired(.retry, queued: 500) == [.send(.oldest(100))])
    }

    @Test func aRefusedBatchIsBisectedUntilTheBadRecordIsAloneAndDropped() {
        var machine = sending(["a", "b", "c", "d"], queued: 4)
        #expect(machine.answered(.refused(status: 400), queued: 4, now: 0, jitter: 0) == [.send(.ids(["a", "b"]))])
        _ = machine.sent(["a", "b"])
        #expect(machine.answered(.accepted, queued: 4, now: 0, jitter: 0) == [.acknowledge(["a", "b"]), .send(.ids(["c", "d"]))])
        _ = machine.sent(["c", "d"])
        #expect(machine.answered(.refused(status: 422), queued: 2, now: 0, jitter: 0) == [.send(.ids(["c"]))])
        _ = machine.sent(["c"])
        #expect(machine.answered(.refused(status: 422), queued: 2, now: 0, jitter: 0) == [.drop(["c"], status: 422), .send(.ids(["d"]))])
        _ = machine.sent(["d"])
        #expect(machine.answered(.accepted, queued: 1, now: 0, jitter: 0) == [.acknowledge(["d"])])
    }

    @Test func aPartUnderSuspicionThatFailsInTransitIsTriedAgainAsItWas() {
        var machine = sending(["a", "b"], queued: 2)
        _ = machine.answered(.refused(status: 400), queued: 2, now: 0, jitter: 0)
        _ = machine.sent(["a"])
        _ = machine.answered(.retryLater(retryAfterMilliseconds: nil, reason: "offline"), queued: 2, now: 0, jitter: 0)
        #expect(machine.timerFired(.retry, queued: 2) == [.send(.ids(["a"]))])
    }

    @Test func aTooLargeBatchIsHalvedAndTheLimitStaysHalved() {
        var machine = sending(["a", "b", "c", "d"], queued: 4)
        #expect(machine.answered(.tooLarge, queued: 4, now: 0, jitter: 0) == [.send(.ids(["a", "b"]))])
        #expect(machine.currentBatchLimit == 2)
    }

    @Test func aSingleRecordTooLargeIsDropped() {
        var machine = sending(["a"], queued: 1)
        #expect(machine.answered(.tooLarge, queued: 1, now: 0, jitter: 0) == [.drop(["a"], status: 413)])
    }

    @Test func aSingleRecordTooLargeOnALaneThatNeverDropsIsKeptAndRetriedAfterTheBackoff() {
        var settings = Self.settings
        settings.dropsOversizedRecord = false
        var machine = DeliveryMachine(settings: settings)
        _ = machine.flushRequested(queued: 1)
        _ = machine.sent(["a"])
        let actions = machine.answered(.tooLarge, queued: 1, now: 0, jitter: 0)
        #expect(!actions.contains { if case .drop = $0 { return true } else { return false } })
        #expect(actions.contains { if case .log(.error, _) = $0 { return true } else { return false } })
        #expect(actions.last == .schedule(.retry, afterMilliseconds: 1000))
        #expect(machine.timerFired(.retry, queued: 1) == [.send(.oldest(1))])
    }

    @Test func refusedCredentialsStopDeliveryForGood() {
        var machine = sending(["a"], queued: 1)
        let actions = machine.answered(.unauthorized(status: 401), queued: 1, now: 0, jitter: 0)
        #expect(actions.count == 1)
        #expect(machine.isStopped)
        #expect(machine.recorded(queued: 100, exposure: true, now: 0) == [])
        #expect(machine.flushRequested(queued: 100) == [])
    }

    @Test func aFlushRequestedWhileBackingOffSendsNow() {
        var machine = sending(["a"], queued: 1)
        _ = machine.answered(.retryLater(retryAfterMilliseconds: nil, reason: "offline"), queued: 1, now: 0, jitter: 0)
        #expect(machine.flushRequested(queued: 1) == [.cancel(.flush), .cancel(.retry), .send(.oldest(100))])
    }

    @Test func aStaleTimerDoesNothing() {
        var machine = DeliveryMachine(settings: Self.settings)
        #expect(machine.timerFired(.retry, queued: 3) == [])
        #expect(machine.timerFired(.flush, queued: 3) == [])
    }

    @Test func recordsFoundAtStartAreScheduled() {
        var machine = DeliveryMachine(settings: Self.settings)
        #expect(machine.resumed(queued: 0, now: 0) == [])
        #expect(machine.resumed(queued: 3, now: 0) == [.schedule(.flush, afterMilliseconds: 10_000)])
    }
}
