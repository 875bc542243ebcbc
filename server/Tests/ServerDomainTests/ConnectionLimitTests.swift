import Testing
@testable import paywire_server

/// How many connections a server serves and sheds, and how long a request may take to arrive.
@Suite struct ConnectionLimitTests {
    private func limits(total: Int, perAddress: Int) -> ConnectionLimits {
        ConnectionLimits(total: total, perAddress: perAddress, acceptCeiling: total + 16, headMillis: 1_000, bodyMillis: 2_000)
    }

    @Test func theDescriptorsKeptForEverythingElseBoundTheDefault() throws {
        let small = try ConnectionLimits.make(descriptors: 1024, total: nil)
        #expect(small.total == 1024 - 128 - 64 && small.acceptCeiling == 1024 - 128)
        let large = try ConnectionLimits.make(descriptors: 1 << 20, total: nil)
        #expect(large.total == ConnectionLimits.mostByDefault)
        let tiny = try ConnectionLimits.make(descriptors: 256, total: nil)
        #expect(tiny.total == 256 - 64 - 16)
    }

    @Test func aLimitTheDescriptorsCannotHoldIsRefusedNamingBoth() {
        #expect(throws: StartProblem.self) { try ConnectionLimits.make(descriptors: 1024, total: 5000) }
        #expect(throws: StartProblem.self) { try ConnectionLimits.make(descriptors: 64, total: nil) }
        #expect((try? ConnectionLimits.make(descriptors: 1024, total: 800))?.total == 800)
    }

    @Test func oneAddressIsShedPastItsShareWhileAnotherIsServed() {
        var counts = ConnectionCounts()
        let limits = limits(total: 10, perAddress: 2)
        #expect(counts.admit("a", within: limits) == .admitted)
        #expect(counts.admit("a", within: limits) == .admitted)
        guard case .shed = counts.admit("a", within: limits) else { Issue.record("a third from one address"); return }
        #expect(counts.admit("b", within: limits) == .admitted)
        counts.release("a")
        #expect(counts.admit("a", within: limits) == .admitted)
        #expect(counts.total == 3)
    }

    @Test func everyAddressIsShedOnceTheServerIsFullAndServedAgainAfter() {
        var counts = ConnectionCounts()
        let limits = limits(total: 2, perAddress: 0)
        #expect(counts.admit("a", within: limits) == .admitted)
        #expect(counts.admit("a", within: limits) == .admitted)
        guard case .shed = counts.admit("b", within: limits) else { Issue.record("past the total"); return }
        counts.release("a")
        #expect(counts.admit("b", within: limits) == .admitted)
    }

    @Test func releasingAnAddressNeverCountedChangesNothing() {
        var counts = ConnectionCounts()
        counts.release("ghost")
        #expect(counts.total == 0 && counts.held(by: "ghost") == 0)
    }

    @Test func aTrickledHeadIsOverdueFromItsFirstByteHoweverTheBytesArePaced() {
        var deadlines = RequestDeadlines(headMillis: 1_000, bodyMillis: 2_000)
        #expect(deadlines.bytesArrived(now: 100) == .arm(at: 1_100))
        #expect(deadlines.bytesArrived(now: 900) == nil, "more bytes do not move the deadline")
        #expect(deadlines.overdue(now: 1_099) == nil)
        #expect(deadlines.overdue(now: 1_100) == .head)
    }

    @Test func theBodyHasItsOwnTimeFromTheHeadAndTheAnswerHasNone() {
        var deadlines = RequestDeadlines(headMillis: 1_000, bodyMillis: 2_000)
        _ = deadlines.bytesArrived(now: 0)
        #expect(deadlines.headParsed(now: 500) == .arm(at: 2_500))
        #expect(deadlines.overdue(now: 2_500) == .body)
        #expect(deadlines.requestEnded() == .disarm)
        #expect(deadlines.overdue(now: 99_999) == nil, "the server's own work has no deadline here")
        #expect(deadlines.responseEnded(now: 3_000) == .disarm)
        #expect(deadlines.phase == .idle)
    }

    @Test func theNextRequestsBytesDuringAnAnswerStartItsTimeWhenTheAnswerEnds() {
        var deadlines = RequestDeadlines(headMillis: 1_000, bodyMillis: 2_000)
        _ = deadlines.bytesArrived(now: 0)
        _ = deadlines.headParsed(now: 10)
        _ = deadlines.requestEnded()
        #expect(deadlines.bytesArrived(now: 20) == nil)
        #expect(deadlines.responseEnded(now: 5_000) == .arm(at: 6_000))
        #expect(deadlines.overdue(now: 6_000) == .head)
    }
}
