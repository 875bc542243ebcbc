import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// What making room in a full queue costs, counted in rows through the store port: it must
/// follow the records that go, never the records held (a full queue of an app offline for a
/// day made every record read a thousand rows to evict one). A full queue frees a hundredth of
/// its limits at once, so a record pays for one eviction on average.
@Suite struct OutboxEvictionCostTests {
    let queue = OutboxQueueTests()

    @Test(arguments: [100, 2_000, 5_000])
    func aFullQueueEvictsAHundredthOfItAtOnceReadingOnlyTheRecordsThatGo(maxQueued: Int) throws {
        let store = CountingOutboxStore()
        let (outbox, _, _) = try queue.outbox(maxQueued: maxQueued, store: store)
        for _ in 0..<maxQueued { try outbox.record("plain", kind: .analytics) { _ in } }
        #expect((store.candidatesRead, store.evicted) == (0, 0))
        var readAndDeleted: [[Int]] = []
        for _ in 0..<100 {
            let (read, deleted) = (store.candidatesRead, store.evicted)
            try outbox.record("plain", kind: .analytics) { _ in }
            readAndDeleted.append([store.candidatesRead - read, store.evicted - deleted])
        }
        // Every `room`-th record makes room for the next ones: it reads and deletes `room` rows.
        let room = max(1, maxQueued / 100)
        #expect(readAndDeleted == (0..<100).map { $0 % room == 0 ? [room, room] : [0, 0] })
        #expect(store.droppedCount == store.evicted)
        #expect(store.count <= maxQueued)
        #expect(try store.oldestSeq(in: .events) == store.evicted + 1)
    }

    @Test func aQueueFullOfExposuresLooksForPlainRecordsThenReadsOnlyTheExposuresThatGo() throws {
        let store = CountingOutboxStore()
        let (outbox, _, _) = try queue.outbox(maxQueued: 2_000, store: store)
        for _ in 0..<2_000 { try outbox.record("paywall_shown", kind: .attribution) { _ in } }
        for _ in 0..<20 { try outbox.record("paywall_shown", kind: .attribution) { _ in } }
        #expect((store.candidateQueries, store.candidatesRead, store.evicted, store.droppedCount) == (2, 20, 20, 20))
        #expect(try store.oldestSeq(in: .events) == 21)
    }

    @Test func theRoomComesOnlyFromTheKindThatHadToGiveARecord() throws {
        let store = CountingOutboxStore()
        let (outbox, _, _) = try queue.outbox(maxQueued: 1_000, store: store)
        for _ in 0..<995 { try outbox.record("paywall_shown", kind: .attribution) { _ in } }
        for _ in 0..<5 { try outbox.record("plain", kind: .analytics) { _ in } }
        try outbox.record("plain", kind: .analytics) { _ in }
        // Ten records of room were wanted; the five plain ones went, no exposure did.
        #expect((store.evicted, store.count) == (5, 996))
        #expect(try store.oldest(kind: .attribution, after: .min, limit: 1).first?.seq == 1)
        #expect(try store.oldest(kind: .analytics, after: .min, limit: 10).map(\.seq) == [1001])
    }

    @Test func overTheByteLimitARecordEvictsTheFewestOldestForARoomOfAHundredthAndReadsAtMostTwiceThose() throws {
        let store = CountingOutboxStore()
        let (outbox, _, _) = try queue.outbox(maxQueued: 10_000, maxBytes: 100_000, store: store)
        while store.totalBytes < 99_000 { try outbox.record("plain", kind: .analytics) { _ in } }
        let before = try store.oldest(in: .events, maxRecords: 10_000, maxBytes: .max)
        #expect(store.evicted == 0)
        let large = String(repeating: "x", count: 5_000)
        try outbox.record("large", kind: .analytics) { writer in writer.member("text", large) }
        let after = try store.oldest(in: .events, maxRecords: 10_000, maxBytes: .max)
        let gone = before.prefix(store.evicted)
        // The oldest went, and one fewer would not have left a hundredth of max_bytes free.
        #expect(after.first?.seq == before.dropFirst(store.evicted).first?.seq)
        #expect(store.totalBytes <= 99_000)
        #expect(store.totalBytes + (gone.last?.body.count ?? 0) > 99_000)
        #expect(store.evicted > 1 && store.candidatesRead <= 2 * store.evicted)
        #expect(store.droppedCount == store.evicted)
    }
}

/// The memory store, counting what eviction reads (candidate rows) and deletes.
final class CountingOutboxStore: OutboxStore {
    let inner = MemoryOutboxStore(installId: "install")
    private(set) var candidateQueries = 0
    private(set) var candidatesRead = 0
    private(set) var evicted = 0

    var installId: String { inner.installId }
    var count: Int { inner.count }
    var totalBytes: Int { inner.totalBytes }
    var droppedCount: Int { inner.droppedCount }

    func close() { inner.close() }
    func nextSeq(in lane: OutboxLane) -> Int { inner.nextSeq(in: lane) }
    func count(in lane: OutboxLane) -> Int { inner.count(in: lane) }
    func oldestSeq(in lane: OutboxLane) throws(WireError) -> Int? { try inner.oldestSeq(in: lane) }

    func commit(inserting record: OutboxRecord?, seq: Int, lane: OutboxLane, evicting: [String], dropped: Int) throws(WireError) {
        evicted += evicting.count
        try inner.commit(inserting: record, seq: seq, lane: lane, evicting: evicting, dropped: dropped)
    }

    func oldest(kind: RecordKind, after seq: Int, limit: Int) throws(WireError) -> [(eventId: String, seq: Int, size: Int)] {
        let rows = try inner.oldest(kind: kind, after: seq, limit: limit)
        candidateQueries += 1
        candidatesRead += rows.count
        return rows
    }

    func oldest(in lane: OutboxLane, maxRecords: Int, maxBytes: Int) throws(WireError) -> [OutboxRecord] {
        try inner.oldest(in: lane, maxRecords: maxRecords, maxBytes: maxBytes)
    }

    func records(withIds ids: [String]) throws(WireError) -> [OutboxRecord] { try inner.records(withIds: ids) }
    func remove(_ ids: [String], reportedDropped: Int) throws(WireError) { try inner.remove(ids, reportedDropped: reportedDropped) }
    func count(in lane: OutboxLane, upTo seq: Int) throws(WireError) -> Int { try inner.count(in: lane, upTo: seq) }
}
