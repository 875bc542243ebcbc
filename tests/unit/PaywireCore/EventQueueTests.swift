import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

@Suite struct EventQueueTests {
    private func seqs(_ queue: inout EventQueue<[UInt8]>) throws -> [(String, Int)] {
        var result: [(String, Int)] = []
        while let bytes = queue.pop() {
            guard case .object(let object) = try JSONParser.parse(bytes),
                  case .string(let name)? = object["event"], case .number(let seq)? = object["seq"],
                  let value = seq.intValue else { Issue.record("malformed event"); continue }
            result.append((name, value))
        }
        return result
    }

    @Test func numbersEventsInOrderFromOne() throws {
        var queue = EventQueue<[UInt8]>(limit: 10, answerLimit: 10)
        for _ in 0..<3 { queue.push(Event("log", retention: .droppable)) }
        #expect(try seqs(&queue).map(\.1) == [1, 2, 3])
    }

    @Test func overflowDropsNewEventsAndReportsTheirRange() throws {
        var queue = EventQueue<[UInt8]>(limit: 4, answerLimit: 4)
        for _ in 0..<6 { queue.push(Event("log", retention: .droppable)) }  // 3 fit, seqs 4...6 are dropped
        let taken = try seqs(&queue)
        #expect(taken.map(\.0) == ["log", "log", "log", "events_overflowed"])
        #expect(taken.map(\.1) == [1, 2, 3, 7])
        queue.push(Event("log", retention: .droppable))
        #expect(try seqs(&queue).map(\.1) == [8])
    }

    @Test func overflowReportCarriesTheDroppedSeqs() throws {
        var queue = EventQueue<[UInt8]>(limit: 2, answerLimit: 2)
        queue.push(Event("a", retention: .droppable))
        queue.push(Event("b", retention: .droppable))
        queue.push(Event("c", retention: .droppable))
        _ = queue.pop()
        guard let report = queue.pop(), case .object(let object) = try JSONParser.parse(report) else {
            Issue.record("no overflow report"); return
        }
        #expect(object["dropped"] == .number(JSONNumber(2)))
        #expect(object["first_dropped_seq"] == .number(JSONNumber(2)))
        #expect(object["last_dropped_seq"] == .number(JSONNumber(3)))
        #expect(object["seq"] == .number(JSONNumber(4)))
    }

    @Test func payloadMembersFollowEventAndSeq() {
        let event = Event("did_load_latest_profile") { writer in writer.member("x", 1) }
        #expect(String(decoding: event.encoded(seq: 9), as: UTF8.self) == #"{"event":"did_load_latest_profile","seq":9,"x":1}"#)
        #expect(String(decoding: Event("empty").encoded(seq: 1), as: UTF8.self) == #"{"event":"empty","seq":1}"#)
    }

    // MARK: - A host that falls behind

    private func log() -> Event { Event("log", retention: .droppable) }
    private func profile(_ version: Int) -> Event {
        Event("did_load_latest_profile", retention: .latestState) { writer in writer.member("version", version) }
    }

    @Test func keptEventsAreNeverDroppedAndTheNoticeComesRightAfterTheGap() throws {
        var queue = EventQueue<[UInt8]>(limit: 4, answerLimit: 4)
        for _ in 0..<5 { queue.push(log()) }              // 1...3 queued, 4 and 5 dropped
        queue.push(Event("host_request"))                 // the notice (6) first, then the request (7)
        queue.push(log())                                 // still full: dropped (8)
        queue.push(Event("paywall_view_did_appear"))      // notice (9), then the view event (10)
        let taken = try seqs(&queue)
        #expect(taken.map(\.0) == ["log", "log", "log", "events_overflowed", "host_request",
                                   "events_overflowed", "paywall_view_did_appear"])
        #expect(taken.map(\.1) == [1, 2, 3, 6, 7, 9, 10])
    }

    @Test func aNewerSnapshotTakesThePlaceAndSeqOfTheQueuedOneWhenFull() throws {
        var queue = EventQueue<[UInt8]>(limit: 4, answerLimit: 4)
        queue.push(profile(1))
        queue.push(Event("host_request"))
        queue.push(Event("host_request"))
        queue.push(profile(2))                            // full: replaces version 1 in place
        queue.push(profile(3))
        #expect(queue.count == 3)
        guard let first = queue.pop(), case .object(let object) = try JSONParser.parse(first) else {
            Issue.record("no snapshot"); return
        }
        #expect(object["seq"] == .number(JSONNumber(1)))
        #expect(object["version"] == .number(JSONNumber(3)))
        #expect(try seqs(&queue).map(\.1) == [2, 3])
    }

    @Test func snapshotsAreAllDeliveredWhileThereIsRoom() throws {
        var queue = EventQueue<[UInt8]>(limit: 8, answerLimit: 4)
        for version in 1...3 { queue.push(profile(version)) }
        #expect(try seqs(&queue).map(\.1) == [1, 2, 3])
    }

    @Test func answersAreRefusedOnlyWhileTheLimitIsOwedAndFreedWhenTaken() throws {
        var queue = EventQueue<[UInt8]>(limit: 4, answerLimit: 2)
        let accepted = [queue.reserveAnswer(), queue.reserveAnswer(), queue.reserveAnswer()]
        #expect(accepted == [true, true, false])
        for _ in 0..<6 { queue.push(log()) }              // a full queue of logs drops no answer
        queue.push(Event("call_result", retention: .answer))
        let whileQueued = queue.reserveAnswer()           // queued is not yet taken
        #expect(!whileQueued)
        let names = try seqs(&queue).map(\.0)
        #expect(names.filter { $0 == "call_result" }.count == 1)
        let afterTaking = [queue.reserveAnswer(), queue.reserveAnswer()]
        #expect(afterTaking == [true, false])             // taken: one slot free again
    }

    @Test func backloggedCountsKeptEventsNotLogsOrAnswers() throws {
        var queue = EventQueue<[UInt8]>(limit: 4, answerLimit: 100)
        for _ in 0..<10 { queue.push(log()) }
        for _ in 0..<10 where queue.reserveAnswer() { queue.push(Event("call_result", retention: .answer)) }
        #expect(!queue.isBacklogged)
        for _ in 0..<3 { queue.push(Event("paywall_view_did_select_product")) }
        #expect(queue.isBacklogged)                       // 3 views and the overflow notice
        for _ in 0..<4 { _ = queue.pop() }                // 3 logs, then the notice
        #expect(!queue.isBacklogged)
    }

    @Test func theQueueStaysBoundedWhenTheHostNeverTakesAnything() {
        var queue = EventQueue<[UInt8]>(limit: 16, answerLimit: 8)
        for round in 0..<10_000 {
            queue.push(log())
            queue.push(profile(round))
            if queue.reserveAnswer() { queue.push(Event("call_result", retention: .answer)) }
            if !queue.isBacklogged { queue.push(Event("host_request")) }
        }
        // logs <= limit, one snapshot, answers <= answerLimit, kept <= limit, plus notices.
        #expect(queue.count <= 16 + 1 + 8 + 16 + 16)
    }

    @Test func everyEventThatIsNotTakenIsDiscardedOnceAndATakenOneNever() {
        let ledger = DiscardLedger()
        DiscardLedger.$current.withValue(ledger) { queueAndDiscard(ledger) }
    }

    private func queueAndDiscard(_ ledger: DiscardLedger) {
        var queue = EventQueue<CountedEvent>(limit: 4, answerLimit: 4)
        queue.push(profile(1))
        queue.push(Event("host_request"))
        queue.push(Event("host_request"))
        queue.push(profile(2))                            // full: version 1's string is discarded
        #expect(ledger.discarded == 1)
        let taken = queue.pop()
        #expect(taken != nil)
        queue.discardAll()                                // the client is freed with two queued
        #expect(ledger.discarded == 3)
        #expect(queue.count == 0 && queue.pop() == nil && !queue.isBacklogged)
        #expect(ledger.made == 4)                         // the taken one is the caller's to free
    }

    @Test func anEventWithNoMemoryToHoldItIsAGapTheOverflowNoticeNames() throws {
        var queue = EventQueue<CountedEvent>(limit: 8, answerLimit: 1)
        queue.push(Event("host_request"))                 // 1
        let reserved = queue.reserveAnswer()
        queue.push(Event("call_result", retention: .answer) { $0.member("no_memory", true) })  // 2: not held, no longer owed
        let reservedAgain = queue.reserveAnswer()         // the limit is one answer
        #expect(reserved && reservedAgain)
        queue.push(Event("host_request"))                 // the notice (3) first, then 4
        var taken: [(String, Int, JSONObject)] = []
        while let event = queue.pop() {
            guard case .object(let object) = try JSONParser.parse(event.bytes), case .string(let name)? = object["event"],
                  case .number(let seq)? = object["seq"], let value = seq.intValue else { Issue.record("malformed"); return }
            taken.append((name, value, object))
        }
        #expect(taken.map(\.0) == ["host_request", "events_overflowed", "host_request"])
        #expect(taken.map(\.1) == [1, 3, 4])
        #expect(taken[1].2["first_dropped_seq"] == .number(JSONNumber(2)))
        #expect(taken[1].2["last_dropped_seq"] == .number(JSONNumber(2)))
    }

    @Test func aNewerSnapshotWithNoMemoryLeavesTheQueuedOne() throws {
        var queue = EventQueue<CountedEvent>(limit: 2, answerLimit: 1)
        queue.push(profile(1))                            // 1, and the queue is full
        queue.push(Event("did_load_latest_profile", retention: .latestState) { $0.member("no_memory", true) })
        #expect(queue.count == 1)
        guard let kept = queue.pop(), case .object(let object) = try JSONParser.parse(kept.bytes) else {
            Issue.record("the queued snapshot is gone"); return
        }
        #expect(object["version"] == .number(JSONNumber(1)))
        #expect(object["seq"] == .number(JSONNumber(1)))
    }
}

/// Counts what a test queue made and discarded (the boundary's payload frees a C string there);
/// task-local, as tests run in parallel.
private final class DiscardLedger: @unchecked Sendable {
    @TaskLocal static var current: DiscardLedger?
    var made = 0
    var discarded = 0
}

/// Held as bytes, except that an event with a `no_memory` member finds none (as `malloc`
/// returning NULL).
private struct CountedEvent: EncodedEvent, Equatable {
    let bytes: [UInt8]
    init?(_ event: Event, seq: UInt64) {
        guard event.payload.firstRange(of: Array("\"no_memory\"".utf8)) == nil else { return nil }
        bytes = event.encoded(seq: seq)
        DiscardLedger.current?.made += 1
    }
    func discard() { DiscardLedger.current?.discarded += 1 }
}
