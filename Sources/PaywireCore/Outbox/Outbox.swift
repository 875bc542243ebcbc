import PaywireModel
import PaywireWire

/// What the backend said to a purchase record (the money lane): the part that made the record
/// acts on the answer, which carries the profile.
protocol PurchaseAnswers: AnyObject {
    /// 2xx: the backend has the transaction.
    func delivered(_ record: OutboxRecord, response: HTTPResponse)
    /// A refusal for good (4xx other than 401/403/408/413/429): the backend judged it.
    func refused(_ record: OutboxRecord, response: HTTPResponse)
}

/// Records that must reach the backend: kept in the durable queue before the call that made
/// them returns, sent by lane (analytics in batches, purchases one by one) by the
/// `DeliveryMachine`'s rules, deleted by id only after the backend answered. Without a
/// transport records are kept but not sent.
final class Outbox {
    /// One lane's delivery: its rules, its timers, its batch in flight.
    struct Lane {
        var machine: DeliveryMachine
        var timerTokens: [DeliveryMachine.Timer: UInt64] = [:]
        var inFlight: InFlight?
    }

    struct InFlight {
        let number: UInt64
        let records: [OutboxRecord]
        /// The dropped count the batch reported (taken off once it is acknowledged).
        let droppedReported: WideInt
    }

    /// A `flush_analytics` call waiting for every analytics record up to `upToSeq` to leave.
    struct FlushWaiter {
        let callToken: UInt64
        let upToSeq: WideInt
        let deadlineToken: UInt64
    }

    let store: OutboxStore
    let config: AnalyticsConfig
    let backend: Backend?
    let profiles: ProfileStore
    let source: AnalyticsRecord.Source
    let timers: Timers
    let calls: Calls
    let log: Log
    let clock: Clock
    /// The records' ids and the retries' jitter.
    let random: RandomSource
    /// Who acts on the backend's verdict on a purchase record.
    let purchaseAnswers: PurchaseAnswers
    var lanes: [OutboxLane: Lane]
    var nextBatch: UInt64 = 1
    var waiters: [FlushWaiter] = []
    /// Whether records were dropped since the last report, so a full queue logs once, not per record.
    private var dropping = false

    init(store: OutboxStore, config: AnalyticsConfig, backend: Backend?, profiles: ProfileStore, source: AnalyticsRecord.Source,
         purchaseAnswers: PurchaseAnswers, timers: Timers, calls: Calls, log: Log, clock: Clock, random: RandomSource) {
        self.store = store
        self.config = config
        self.purchaseAnswers = purchaseAnswers
        self.backend = backend
        self.profiles = profiles
        self.source = source
        self.timers = timers
        self.calls = calls
        self.log = log
        self.clock = clock
        self.random = random
        let events = DeliveryMachine.Settings(config)
        // A purchase leaves at once, alone; it backs off like the rest.
        var purchases = events
        purchases.flushAt = 1
        purchases.batchMaxRecords = 1
        purchases.dropsOversizedRecord = false
        lanes = [.events: Lane(machine: DeliveryMachine(settings: events)), .purchases: Lane(machine: DeliveryMachine(settings: purchases))]
    }

    /// Starts delivering what an earlier run left queued.
    func resume() {
        for lane in OutboxLane.allCases {
            let queued = store.count(in: lane)
            drive(lane) { $0.resumed(queued: queued, now: clock.nowMilliseconds()) }
        }
    }

    /// Keeps one analytics record durably and returns its `event_id`; nil when the user opted
    /// out (`analytics_disabled`): from that call on no analytics record is made at all, while
    /// those already queued still go (they were made with consent). Throws `storage_failed`
    /// when the queue could not keep it: then nothing claims it was recorded, and
    /// `wrong_param` naming the member when the backend would refuse the record
    /// (`AnalyticsRecord.validate`, the backend's own rule).
    @discardableResult
    func record(_ name: String, kind: RecordKind, params: (inout JSONWriter) -> Void) throws(WireError) -> String? {
        let profile = profiles.current
        guard !profile.analyticsDisabled else { return nil }
        let now = clock.nowMilliseconds()
        let seq = store.nextSeq(in: kind.lane)
        let header = AnalyticsRecord.Header(eventId: random.uuidV7(milliseconds: now), profileId: profile.profileId,
                                            customerUserId: profile.customerUserId, createdAt: now, seq: seq, name: name)
        let body = AnalyticsRecord.encode(header, source: source, sdkVersion: PaywireVersion.library, writeParams: params)
        try AnalyticsRecord.validate(encoded: body)
        try keep(OutboxRecord(eventId: header.eventId, seq: seq, kind: kind, body: body))
        return header.eventId
    }

    /// The purchase records waiting for the backend (an earlier run's included), oldest first.
    /// A queue that cannot be read is logged: those records still go, but their grants do not
    /// stand meanwhile.
    func keptPurchases() -> [OutboxRecord] {
        do throws(WireError) {
            return try store.oldest(in: .purchases, maxRecords: 10_000, maxBytes: .max).filter { $0.kind == .money }
        } catch {
            log(.error, "could not read the purchases kept for the backend: \(error.message)",
                details: [("code", .string(error.code.rawValue))])
            return []
        }
    }

    /// Keeps a purchase record durably, next in the money lane.
    func keepPurchase(eventId: String, body: [UInt8]) throws(WireError) {
        try keep(OutboxRecord(eventId: eventId, seq: store.nextSeq(in: .purchases), kind: .money, body: body, route: "purchases"))
    }

    func keep(_ record: OutboxRecord) throws(WireError) {
        let (kept, evicted) = try evictions(toMake: record)
        let dropped = WideInt(evicted.count + (kept ? 0 : 1))
        try store.commit(inserting: kept ? record : nil, seq: record.seq, lane: record.kind.lane, evicting: evicted, dropped: dropped)
        if dropped > 0 && !dropping {
            dropping = true
            log(.warn, "the analytics queue is full (\(config.maxQueued) records or \(config.maxBytes) bytes): oldest records dropped",
                details: [("dropped", .number(JSONNumber(dropped)))])
        }
        guard kept else { return }
        let lane = record.kind.lane
        let queued = store.count(in: lane)
        drive(lane) { $0.recorded(queued: queued, exposure: record.kind == .attribution, now: clock.nowMilliseconds()) }
    }

    /// Keeps a record whose loss must not fail the call that made it (a view event): a
    /// failure is reported as an `error` log event.
    func recordReportingFailure(_ name: String, kind: RecordKind, params: (inout JSONWriter) -> Void) {
        do throws(WireError) {
            try record(name, kind: kind, params: params)
        } catch {
            log(.error, "could not keep analytics record '\(name)': \(error.message)", details: [("name", .string(name))])
        }
    }

    /// Which records make room for `record` when the queue is full: plain analytics oldest
    /// first (the new record among them when it is the oldest left), then attribution; money
    /// never. `keep` is false when the new record is itself the one to go.
    ///
    /// A full queue frees a hundredth of both limits at once (`EvictionRoom`), so the next
    /// records go in without evicting: a delete costs SQLite about twice an insert (more pages
    /// written), so evicting one record per record would make each one about 2.5x dearer;
    /// in a batch it is paid once per 1% of the queue. The room is taken from the kind that
    /// had to give records anyway, never from the next kind. Candidates are read a page at a
    /// time, the first as large as the records that must go, so the cost follows the records
    /// evicted, not the records held.
    private func evictions(toMake record: OutboxRecord) throws(WireError) -> (keep: Bool, evicted: [String]) {
        var count = store.count + 1
        var bytes = store.totalBytes + record.body.count
        var evicted: [String] = []
        let room = EvictionRoom(config)
        func full() -> Bool { count > config.maxQueued || bytes > config.maxBytes }
        func roomMade() -> Bool { count <= config.maxQueued - room.records + 1 && bytes <= config.maxBytes - room.bytes }
        guard full() else { return (true, []) }
        for kind in [RecordKind.analytics, .attribution] {
            var after = WideInt.min
            var page = max(1, count - (config.maxQueued - room.records + 1))
            while !roomMade() {
                let candidates = try store.oldest(kind: kind, after: after, limit: page)
                for candidate in candidates where !roomMade() {
                    evicted.append(candidate.eventId)
                    count -= 1
                    bytes -= candidate.size
                    after = candidate.seq
                }
                // Fewer than asked: no record of this kind is left.
                guard candidates.count == page else { break }
                // Over the byte limit: how many more must go is unknown; ask for more each time.
                page *= 2
            }
            if full() && record.kind == kind { return (false, evicted) }
            if !full() { break }
        }
        return (true, evicted)
    }
}

/// How much a full queue frees at once: a hundredth of `max_queued` (at least one record) and
/// of `max_bytes`. With the default 10,000 records, one record in a hundred pays for evicting a
/// hundred, and a limit of 100 or fewer evicts one record at a time, as it fills.
struct EvictionRoom {
    let records: Int
    let bytes: Int

    init(_ config: AnalyticsConfig) {
        records = max(1, config.maxQueued / 100)
        bytes = config.maxBytes / 100
    }
}
