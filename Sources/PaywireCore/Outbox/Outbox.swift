/// Records that must reach the backend: kept in the durable queue before the call that made
/// them returns, sent in batches by the `DeliveryMachine`'s rules, deleted by id only after the
/// backend stored them. Without a transport records are kept but not sent.
final class Outbox {
    /// The outbox's timers.
    enum Timer: Equatable, Sendable {
        case delivery(DeliveryMachine.Timer)
        /// A `flush_analytics` call's deadline.
        case flushDeadline(callToken: UInt64)
    }

    /// The batch in flight.
    private struct InFlight {
        let number: UInt64
        let ids: [String]
        /// The dropped count the batch reported (taken off once it is acknowledged).
        let droppedReported: Int
    }

    /// A `flush_analytics` call waiting for every record up to `upToSeq` to leave.
    private struct FlushWaiter {
        let callToken: UInt64
        let upToSeq: Int
        let deadlineToken: UInt64
    }

    private let store: OutboxStore
    private let config: AnalyticsConfig
    private let backend: Backend?
    private let profiles: ProfileStore
    private let source: RecordSource
    private let timers: Timers
    private let calls: Calls
    private let log: Log
    private let clock: Clock
    private var machine: DeliveryMachine
    private var timerTokens: [DeliveryMachine.Timer: UInt64] = [:]
    private var inFlight: InFlight?
    private var nextBatch: UInt64 = 1
    private var waiters: [FlushWaiter] = []
    /// Whether records were dropped since the last report, so a full queue logs once, not per record.
    private var dropping = false

    init(store: OutboxStore, config: AnalyticsConfig, backend: Backend?, profiles: ProfileStore, source: RecordSource,
         timers: Timers, calls: Calls, log: Log, clock: Clock) {
        self.store = store
        self.config = config
        self.backend = backend
        self.profiles = profiles
        self.source = source
        self.timers = timers
        self.calls = calls
        self.log = log
        self.clock = clock
        machine = DeliveryMachine(settings: DeliveryMachine.Settings(
            flushIntervalMilliseconds: config.flushIntervalMilliseconds, flushAt: config.flushAt,
            exposureFlushDelayMilliseconds: config.exposureFlushDelayMilliseconds,
            exposureFlushesPerMinute: AnalyticsConfig.exposureFlushesPerMinute, batchMaxRecords: config.batchMaxRecords,
            retryMinMilliseconds: config.retryMinMilliseconds, retryMaxMilliseconds: config.retryMaxMilliseconds))
        drive(machine.resumed(queued: store.count, now: clock.nowMilliseconds()))
    }

    /// Keeps one record durably and returns its `event_id`. Throws `storage_failed` when the
    /// queue could not keep it: then nothing claims it was recorded.
    @discardableResult
    func record(_ name: String, kind: RecordKind, params: (inout JSONWriter) -> Void) throws(WireError) -> String {
        let now = clock.nowMilliseconds()
        let seq = store.nextSeq
        let eventId = UUIDs.v7(milliseconds: now)
        let body = AnalyticsRecord.encode(eventId: eventId, seq: seq, createdAt: now, name: name, profile: profiles.current,
                                          source: source, params: params)
        let record = OutboxRecord(eventId: eventId, seq: seq, kind: kind, body: body)
        let (keep, evicted) = try evictions(toMake: record)
        let dropped = evicted.count + (keep ? 0 : 1)
        try store.commit(inserting: keep ? record : nil, seq: seq, evicting: evicted, dropped: dropped)
        if dropped > 0 && !dropping {
            dropping = true
            log(.warn, "the analytics queue is full (\(config.maxQueued) records or \(config.maxBytes) bytes): oldest records dropped",
                details: [("dropped", .number(JSONNumber(dropped)))])
        }
        if keep { drive(machine.recorded(queued: store.count, exposure: kind == .attribution, now: now)) }
        return eventId
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
    private func evictions(toMake record: OutboxRecord) throws(WireError) -> (keep: Bool, evicted: [String]) {
        var count = store.count + 1
        var bytes = store.totalBytes + record.body.count
        var evicted: [String] = []
        func full() -> Bool { count > config.maxQueued || bytes > config.maxBytes }
        guard full() else { return (true, []) }
        for kind in [RecordKind.analytics, .attribution] {
            for (id, size) in try store.oldest(kind: kind, limit: 1000) where full() {
                evicted.append(id)
                count -= 1
                bytes -= size
            }
            if full() && record.kind == kind { return (false, evicted) }
            if !full() { break }
        }
        return (true, evicted)
    }
}

extension Outbox {
    /// `flush_analytics`: answered once every record queued now has left (acknowledged, or
    /// refused and dropped), or with `timeout` when `timeoutMilliseconds` passes first.
    func flush(timeoutMilliseconds: Int) throws(WireError) -> CallOutcome {
        guard let backend else {
            throw WireError(.invalidState, "no transport is configured: \(store.count) record(s) stay queued",
                            details: JSONObject([("remaining", .number(JSONNumber(store.count)))]))
        }
        guard !machine.isStopped else {
            throw WireError(.unauthorized, "the backend refused the api_key: analytics delivery is stopped",
                            details: JSONObject([("remaining", .number(JSONNumber(store.count)))]))
        }
        guard store.count > 0 else { return .done(Outbox.flushed) }
        let (token, outcome) = try calls.promise("flush_analytics", waitsOnHost: backend.carriedByHost,
                                                 waitLimit: timeoutMilliseconds + 2000)
        let deadline = timers.schedule(.outbox(.flushDeadline(callToken: token)), after: timeoutMilliseconds)
        waiters.append(FlushWaiter(callToken: token, upToSeq: store.nextSeq - 1, deadlineToken: deadline))
        drive(machine.flushRequested(queued: store.count))
        return outcome
    }

    /// The client is being freed: a last batch leaves now when it can be answered without the
    /// host (the built-in transport). Returns how long the boundary may wait for it.
    func beginClosing() -> Int? {
        guard let backend, !backend.carriedByHost, config.closeFlushMilliseconds > 0, !machine.isStopped else { return nil }
        drive(machine.flushRequested(queued: store.count))
        return machine.isSending ? config.closeFlushMilliseconds : nil
    }

    /// Whether a batch is in flight.
    var isSending: Bool { inFlight != nil }

    func timerFired(_ timer: Timer) {
        switch timer {
        case .delivery(let timer):
            timerTokens.removeValue(forKey: timer)
            drive(machine.timerFired(timer, queued: store.count))
        case .flushDeadline(let callToken):
            guard let index = waiters.firstIndex(where: { $0.callToken == callToken }) else { return }
            let waiter = waiters.remove(at: index)
            let remaining = (try? store.count(upTo: waiter.upToSeq)) ?? store.count
            calls.complete(callToken, .failure(WireError(.timeout, "\(remaining) record(s) were not delivered in time",
                                                         details: JSONObject([("remaining", .number(JSONNumber(remaining)))]))))
        }
    }

    /// The backend's answer to batch `number`.
    func batchAnswered(_ number: UInt64, _ outcome: HTTPOutcome) {
        guard let batch = inFlight, batch.number == number else { return }
        let answer = Outbox.answer(outcome, now: clock.nowMilliseconds())
        var generator = SystemRandomNumberGenerator()
        drive(machine.answered(answer, queued: store.count, now: clock.nowMilliseconds(),
                               jitter: Double.random(in: 0..<1, using: &generator)))
    }

    // MARK: - Running the machine's actions

    func drive(_ actions: [DeliveryMachine.Action]) {
        guard backend != nil else { return }
        for action in actions {
            switch action {
            case .send(let selection): send(selection)
            case .schedule(let timer, let milliseconds):
                if let old = timerTokens[timer] { timers.cancel(old) }
                timerTokens[timer] = timers.schedule(.outbox(.delivery(timer)), after: milliseconds)
            case .cancel(let timer):
                if let old = timerTokens.removeValue(forKey: timer) { timers.cancel(old) }
            case .acknowledge(let ids): acknowledge(ids)
            case .drop(let ids, let status): drop(ids, status: status)
            case .log(let level, let message): log(level, message)
            }
        }
        settleWaiters()
    }

    private func send(_ selection: DeliveryMachine.Selection) {
        guard let backend else { return }
        let records: [OutboxRecord]
        do throws(WireError) {
            switch selection {
            case .oldest(let limit): records = try store.oldest(maxRecords: limit, maxBytes: config.batchMaxBytes)
            case .ids(let ids): records = try store.records(withIds: ids)
            }
        } catch {
            log(.error, "could not read the analytics queue: \(error.message)")
            inFlight = nil
            drive(machine.sent([]))
            return
        }
        let ids = records.map(\.eventId)
        guard !ids.isEmpty else {
            inFlight = nil
            drive(machine.sent([]))
            return
        }
        let dropped = store.droppedCount
        let number = nextBatch
        nextBatch += 1
        inFlight = InFlight(number: number, ids: ids, droppedReported: dropped)
        _ = machine.sent(ids)
        backend.send(.events(batch: number), method: "POST", url: backend.url(route: "events"),
                     headers: [("accept", "application/json")], body: AnalyticsRecord.batch(records, droppedCount: dropped))
    }

    private func acknowledge(_ ids: [String]) {
        let reported = inFlight?.droppedReported ?? 0
        inFlight = nil
        do throws(WireError) {
            try store.remove(ids, reportedDropped: reported)
        } catch {
            // The backend has them: sending them again later is safe (it deduplicates).
            log(.error, "could not delete \(ids.count) delivered record(s): \(error.message)")
        }
        if reported > 0 {
            dropping = false
            log(.warn, "\(reported) record(s) dropped while the analytics queue was full were reported to the backend",
                details: [("dropped", .number(JSONNumber(reported)))])
        }
    }

    private func drop(_ ids: [String], status: Int) {
        inFlight = nil
        do throws(WireError) { try store.remove(ids, reportedDropped: 0) } catch {
            log(.error, "could not delete refused record(s): \(error.message)")
        }
        log(.error, "the backend refused \(ids.count) record(s) (HTTP \(status)); they are dropped",
            details: [("event_ids", .array(ids.map { .string($0) })), ("status", .number(JSONNumber(status)))])
    }

    /// Answers every flush waiting for records that have all left.
    private func settleWaiters() {
        guard !waiters.isEmpty else { return }
        let oldest = store.oldestSeq ?? .max
        waiters.removeAll { waiter in
            guard oldest > waiter.upToSeq else { return false }
            timers.cancel(waiter.deadlineToken)
            calls.complete(waiter.callToken, Outbox.flushed)
            return true
        }
    }

    private static let flushed = CallResponse.success { writer in writer.object { writer in writer.member("remaining", 0) } }
}
