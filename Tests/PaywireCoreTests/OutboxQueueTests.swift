import Testing
@testable import PaywireCore

/// The outbox's queue rules through the memory store: records, seq, bounds and eviction.
@Suite struct OutboxQueueTests {
    func outbox(maxQueued: Int = 100, store: OutboxStore = MemoryOutboxStore()) throws -> (Outbox, OutboxStore, RecordingSink) {
        let sink = RecordingSink()
        let log = Log(level: .warn, sink: sink)
        let config = try ClientConfig.parse(Array(#"{"profile_id":"p"}"#.utf8))
        let profiles = try ProfileStore(config: config, storage: MemoryStorage(), sink: sink, clock: FixedClock(milliseconds: 1000),
                                        accessClock: AccessClock(clock: FixedClock(milliseconds: 1000)), timers: Timers(scheduler: nil), log: log, observer: ServedPaywalls())
        var analytics = AnalyticsConfig()
        analytics.maxQueued = maxQueued
        let outbox = Outbox(store: store, config: analytics, backend: nil, profiles: profiles,
                            source: RecordSource(installId: "install", sessionId: "session", platform: nil, appVersion: nil, wrapper: nil),
                            timers: Timers(scheduler: nil), calls: Calls(completions: nil), log: log, clock: FixedClock(milliseconds: 1000))
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

    @Test func aFullQueueLogsOnceNotPerRecord() throws {
        let (outbox, _, sink) = try outbox()
        for _ in 0..<150 { try outbox.record("plain", kind: .analytics) { _ in } }
        #expect(sink.events.filter { $0.name == "log" }.count == 1)
    }

    @Test func theBatchSplicesTheKeptBodiesAndTheDroppedCount() {
        let records = [OutboxRecord(eventId: "a", seq: 1, kind: .analytics, body: Array(#"{"n":1}"#.utf8)),
                       OutboxRecord(eventId: "b", seq: 2, kind: .analytics, body: Array(#"{"n":2}"#.utf8))]
        #expect(String(decoding: AnalyticsRecord.batch(records, droppedCount: 3), as: UTF8.self) == #"{"records":[{"n":1},{"n":2}],"dropped_count":3}"#)
        #expect(String(decoding: AnalyticsRecord.batch(records, droppedCount: 0), as: UTF8.self) == #"{"records":[{"n":1},{"n":2}]}"#)
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
