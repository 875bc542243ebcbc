import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// No purchase records are made here: their answers are not heard.
final class IgnoredPurchaseAnswers: PurchaseAnswers {
    func delivered(_ record: OutboxRecord, response: HTTPResponse) {}
    func refused(_ record: OutboxRecord, response: HTTPResponse) {}
}

/// The outbox's queue rules through the memory store: records, seq, bounds and eviction.
@Suite struct OutboxQueueTests {
    func outbox(maxQueued: Int = 100, maxBytes: Int = AnalyticsConfig().maxBytes,
                store: OutboxStore = MemoryOutboxStore(installId: "install")) throws -> (Outbox, OutboxStore, RecordingSink) {
        let sink = RecordingSink()
        let log = Log(level: .warn, sink: sink)
        let config = try ClientConfig.parse(Array(#"{"profile_id":"p"}"#.utf8))
        let timers = Timers(scheduler: nil)
        let profiles = try ProfileStore(config: config, storage: MemoryStorage(), sink: sink, clock: ManualClock(wall: 1000), random: CountingRandom(),
                                        accessClock: AccessClock(clock: ManualClock(wall: 1000), timers: timers), log: log,
                                        observer: ServedPaywalls(), fetch: nil)
        var analytics = AnalyticsConfig()
        analytics.maxQueued = maxQueued
        analytics.maxBytes = maxBytes
        let outbox = Outbox(store: store, config: analytics, backend: nil, profiles: profiles,
                            source: AnalyticsRecord.Source(installId: "install", sessionId: "session", platform: nil, appVersion: nil, wrapper: nil),
                            purchaseAnswers: IgnoredPurchaseAnswers(), timers: timers, calls: Calls(completions: nil), log: log,
                            clock: ManualClock(wall: 1000), random: CountingRandom())
        return (outbox, store, sink)
    }

    func seqs(_ store: OutboxStore) throws -> [Int] { try store.oldest(in: .events, maxRecords: 1000, maxBytes: .max).map(\.seq) }

    @Test func recordsTakeConsecutiveSeqsAndUUIDv7Ids() throws {
        let (outbox, store, _) = try outbox()
        let first = try #require(try outbox.record("a", kind: .analytics) { _ in })
        try outbox.record("b", kind: .analytics) { _ in }
        #expect(try seqs(store) == [1, 2])
        #expect(first.count == 36 && Array(first)[14] == "7")
    }

    @Test func theRecordBodyIsTheWireShape() throws {
        let (outbox, store, _) = try outbox()
        try outbox.record("paywall_shown", kind: .attribution) { writer in writer.member("placement_id", "x") }
        guard case .object(let record)? = try? JSONParser.parse(try store.oldest(in: .events, maxRecords: 1, maxBytes: .max)[0].body) else {
            Issue.record("not an object"); return
        }
        #expect(record["name"] == .string("paywall_shown"))
        #expect(record["install_id"] == .string("install"))
        #expect(record["created_at"] == .number(JSONNumber(1000)))
        #expect(record["customer_user_id"] == nil)
    }

    @Test func whenFullThePlainAnalyticsGoFirstOldestFirst() throws {
        let (outbox, store, sink) = try outbox()
        try outbox.record("exposure", kind: .attribution) { _ in }
        for _ in 0..<99 { try outbox.record("plain", kind: .analytics) { _ in } }
        try outbox.record("late", kind: .analytics) { _ in }
        #expect(store.count == 100)
        #expect(try seqs(store).first == 1)
        #expect(try seqs(store).dropFirst().first == 3)
        #expect(store.droppedCount == 1)
        #expect(sink.events.map(\.name) == ["log"])
    }

    @Test func attributionGoesOnlyWhenNoPlainRecordIsLeft() throws {
        let (outbox, store, _) = try outbox()
        for _ in 0..<100 { try outbox.record("exposure", kind: .attribution) { _ in } }
        try outbox.record("plain", kind: .analytics) { _ in }
        #expect(try seqs(store) == Array(1...100))
        #expect(store.droppedCount == 1)
        try outbox.record("exposure", kind: .attribution) { _ in }
        #expect(try seqs(store).first == 2)
        #expect(try seqs(store).last == 102)
    }

    @Test func moneyIsNeverEvicted() throws {
        let (outbox, store, _) = try outbox()
        for _ in 0..<100 { try outbox.record("purchase", kind: .money) { _ in } }
        try outbox.record("purchase", kind: .money) { _ in }
        #expect(store.count == 101)
        try outbox.record("plain", kind: .analytics) { _ in }
        #expect(store.count == 101)
        #expect(store.droppedCount == 1)
    }

    @Test func eachLaneCountsItsOwnRecordsThroughEvictionAndRemoval() throws {
        let (outbox, store, _) = try outbox()
        for _ in 0..<3 { try outbox.record("purchase", kind: .money) { _ in } }
        for _ in 0..<100 { try outbox.record("plain", kind: .analytics) { _ in } }
        // Full: each new record evicts a plain one, so the events lane stays at 97.
        try outbox.record("exposure", kind: .attribution) { _ in }
        #expect((store.count(in: .events), store.count(in: .purchases), store.count) == (97, 3, 100))
        let sent = try store.oldest(in: .events, maxRecords: 10, maxBytes: .max).map(\.eventId)
            + store.oldest(in: .purchases, maxRecords: 1, maxBytes: .max).map(\.eventId)
        try store.remove(sent + ["not-held"], reportedDropped: 0)
        #expect((store.count(in: .events), store.count(in: .purchases), store.count) == (87, 2, 89))
    }

    @Test func theMemoryStoreKeepsSeqOrderAcrossKindsThroughRemovalsAnywhere() throws {
        let store = MemoryOutboxStore(installId: "install")
        func id(_ seq: Int) -> String { "id-\(seq)" }
        for seq in 1...200 {
            let record = OutboxRecord(eventId: id(seq), seq: seq, kind: seq % 3 == 0 ? .attribution : .analytics, body: [UInt8](repeating: 0, count: seq))
            try store.commit(inserting: record, seq: seq, lane: .events, evicting: [], dropped: 0)
        }
        // From the middle, then most of the front (which gives the lines' space back).
        try store.remove([id(160), id(161)], reportedDropped: 0)
        try store.commit(inserting: nil, seq: 201, lane: .events, evicting: (1...150).map(id), dropped: 150)
        let left = [151, 152, 153, 154, 155, 156, 157, 158, 159] + Array(162...200)
        #expect(try store.oldest(in: .events, maxRecords: 1000, maxBytes: .max).map(\.seq) == left)
        #expect((store.count, store.count(in: .events), store.totalBytes, store.droppedCount) == (left.count, left.count, left.reduce(0, +), 150))
        #expect(try store.oldestSeq(in: .events) == 151)
        #expect(try store.count(in: .events, upTo: 162) == 10)
        #expect(try store.oldest(kind: .attribution, after: 156, limit: 3).map(\.seq) == [159, 162, 165])
        #expect(try store.oldest(kind: .analytics, after: 0, limit: 2).map(\.size) == [151, 152])
        #expect(try store.records(withIds: [id(170), id(1), id(155)]).map(\.seq) == [155, 170])
        #expect(store.nextSeq(in: .events) == 202)
    }

    @Test func aFullQueueLogsOnceNotPerRecord() throws {
        let (outbox, _, sink) = try outbox()
        for _ in 0..<150 { try outbox.record("plain", kind: .analytics) { _ in } }
        #expect(sink.events.filter { $0.name == "log" }.count == 1)
    }

    @Test func theBatchSplicesTheKeptBodiesAndTheDroppedCount() {
        let records = [Array(#"{"n":1}"#.utf8), Array(#"{"n":2}"#.utf8)]
        #expect(String(decoding: EventBatch.encode(records, droppedCount: 3), as: UTF8.self) == #"{"records":[{"n":1},{"n":2}],"dropped_count":3}"#)
        #expect(String(decoding: EventBatch.encode(records, droppedCount: 0), as: UTF8.self) == #"{"records":[{"n":1},{"n":2}]}"#)
    }

    @Test(arguments: [("120", 120_000), ("0", 0), ("Mon, 15 Jan 2024 10:31:00 GMT", 60_000), ("soon", nil), ("", nil)])
    func retryAfterReadsSecondsAndHTTPDates(_ header: String, _ expected: Int?) {
        #expect(Outbox.retryAfter(header, now: 1_705_314_600_000) == expected)
    }

    @Test func anOptedOutUserMakesNoAnalyticsButTheProfilesRecordsStillGo() throws {
        let (outbox, store, _) = try outbox()
        try outbox.record("paywall_shown", kind: .attribution) { _ in }
        try outbox.profiles.update({ (profile: inout Profile) throws(WireError) in profile.analyticsDisabled = true },
                                   beforeKeeping: { _, next throws(WireError) in try outbox.keepProfileRecord(.profileAttributes, profile: next) })
        #expect(try outbox.record("paywall_shown", kind: .attribution) { _ in } == nil)
        #expect(try outbox.record("paywall_view_did_appear", kind: .analytics) { _ in } == nil)
        #expect(store.count(in: .events) == 1)
        try outbox.profiles.update({ (profile: inout Profile) throws(WireError) in profile.integrationIds["branch_id"] = "b" },
                                   beforeKeeping: { _, next throws(WireError) in try outbox.keepProfileRecord(.integrationIds, profile: next) })
        let kept = try store.oldest(in: .purchases, maxRecords: 10, maxBytes: .max)
        #expect(kept.map(\.kind) == [.profileAttributes, .integrationIds])
        #expect(outbox.keptPurchases().isEmpty)
    }
}
