import Testing
@testable import PaywireCore

@Suite struct EventQueueTests {
    private func seqs(_ queue: inout EventQueue) throws -> [(String, Int)] {
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
        var queue = EventQueue(limit: 10)
        for _ in 0..<3 { queue.push(Event("log")) }
        #expect(try seqs(&queue).map(\.1) == [1, 2, 3])
    }

    @Test func overflowDropsNewEventsAndReportsTheirRange() throws {
        var queue = EventQueue(limit: 4)
        for _ in 0..<6 { queue.push(Event("log")) }  // 3 fit, seqs 4...6 are dropped
        let taken = try seqs(&queue)
        #expect(taken.map(\.0) == ["log", "log", "log", "events_overflowed"])
        #expect(taken.map(\.1) == [1, 2, 3, 7])
        queue.push(Event("log"))
        #expect(try seqs(&queue).map(\.1) == [8])
    }

    @Test func overflowReportCarriesTheDroppedSeqs() throws {
        var queue = EventQueue(limit: 2)
        queue.push(Event("a"))
        queue.push(Event("b"))
        queue.push(Event("c"))
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
}
