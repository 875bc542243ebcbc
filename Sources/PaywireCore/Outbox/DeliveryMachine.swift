import PaywireModel
import PaywireWire

/// How the backend took a batch, as the delivery rules see it.
enum BatchAnswer: Sendable {
    /// 2xx: every record of the batch is stored; delete them.
    case accepted
    /// 408, 429, 5xx, or no answer: try again later, after `retryAfterMilliseconds` at least.
    case retryLater(retryAfterMilliseconds: WideInt?, reason: String)
    /// 413: the batch is too large.
    case tooLarge
    /// 401 or 403: the key is refused; nothing more is sent by this client.
    case unauthorized(status: Int)
    /// Any other 4xx: something in the batch is refused.
    case refused(status: Int)
}

/// When to send which records, and what to do with the answer: a pure state machine that
/// returns actions. One batch in flight at a time; a refused batch is bisected until the bad
/// records are alone and dropped, so no batch is retried forever; failures back off with full
/// jitter and never poll faster than the schedule.
struct DeliveryMachine: Sendable {
    /// The delivery rules' numbers; their defaults live in `AnalyticsConfig`, once.
    struct Settings: Sendable {
        var flushIntervalMilliseconds: WideInt
        var flushAt: Int
        var exposureFlushDelayMilliseconds: WideInt
        var exposureFlushesPerMinute: Int
        var batchMaxRecords: Int
        var retryMinMilliseconds: WideInt
        var retryMaxMilliseconds: WideInt
        /// Whether a record refused as too large on its own (413) is dropped. Analytics records
        /// are; a purchase record is kept and retried, because a 413 is no verdict on it.
        var dropsOversizedRecord = true

        /// The events lane's settings from the client's `analytics` config.
        init(_ config: AnalyticsConfig) {
            flushIntervalMilliseconds = config.flushIntervalMilliseconds
            flushAt = config.flushAt
            exposureFlushDelayMilliseconds = config.exposureFlushDelayMilliseconds
            exposureFlushesPerMinute = AnalyticsConfig.exposureFlushesPerMinute
            batchMaxRecords = config.batchMaxRecords
            retryMinMilliseconds = config.retryMinMilliseconds
            retryMaxMilliseconds = config.retryMaxMilliseconds
        }

        init(flushIntervalMilliseconds: WideInt, flushAt: Int, exposureFlushDelayMilliseconds: WideInt, exposureFlushesPerMinute: Int,
             batchMaxRecords: Int, retryMinMilliseconds: WideInt, retryMaxMilliseconds: WideInt) {
            self.flushIntervalMilliseconds = flushIntervalMilliseconds
            self.flushAt = flushAt
            self.exposureFlushDelayMilliseconds = exposureFlushDelayMilliseconds
            self.exposureFlushesPerMinute = exposureFlushesPerMinute
            self.batchMaxRecords = batchMaxRecords
            self.retryMinMilliseconds = retryMinMilliseconds
            self.retryMaxMilliseconds = retryMaxMilliseconds
        }
    }

    enum Timer: Equatable, Hashable, Sendable {
        /// The next regular (or early) batch.
        case flush
        /// The next try after a failure.
        case retry
    }

    /// Which records a batch carries.
    enum Selection: Sendable {
        /// The oldest records, at most this many.
        case oldest(Int)
        /// Exactly these (a part of a refused batch being bisected).
        case ids([String])
    }

    enum Action: Sendable {
        case send(Selection)
        /// Sets the timer (replacing the one set before).
        case schedule(Timer, afterMilliseconds: WideInt)
        case cancel(Timer)
        /// The batch is stored by the backend: delete its records.
        case acknowledge([String])
        /// The backend refuses these records for good: drop them, saying which and why.
        case drop([String], status: Int)
        case log(LogLevel, String)
    }

    private enum Phase: Equatable, Sendable {
        case idle
        /// A flush timer is set, due at this time.
        case waiting(due: WideInt)
        /// A batch is in flight; `suspect` when it is a part of a refused batch.
        case sending([String], suspect: Bool)
        case backingOff
        /// Refused credentials: nothing more is sent.
        case stopped
    }

    private let settings: Settings
    private var phase: Phase = .idle
    private var batchLimit: Int
    private var failures = 0
    /// Parts of refused batches still to send alone, first first.
    private var suspects: [[String]] = []
    private var exposureFlushTimes: [WideInt] = []
    /// Someone waits for the queue to empty: drain without waiting for the interval.
    private var urgent = false

    init(settings: Settings) {
        self.settings = settings
        batchLimit = settings.batchMaxRecords
    }

    var isStopped: Bool { phase == .stopped }
    var isSending: Bool { if case .sending = phase { return true } else { return false } }
    /// Records leave in batches of at most this many (halved by each 413).
    var currentBatchLimit: Int { batchLimit }

    /// A record was kept; `queued` records now wait.
    mutating func recorded(queued: Int, exposure: Bool, now: WideInt) -> [Action] {
        switch phase {
        case .sending, .backingOff, .stopped:
            return []
        case .idle, .waiting:
            break
        }
        if queued >= settings.flushAt { return send() }
        var delay = settings.flushIntervalMilliseconds
        exposureFlushTimes.removeAll { $0 <= now - 60_000 }
        if exposure && exposureFlushTimes.count < settings.exposureFlushesPerMinute {
            exposureFlushTimes.append(now)
            delay = settings.exposureFlushDelayMilliseconds
        }
        if case .waiting(let due) = phase, due <= now + delay { return [] }
        phase = .waiting(due: now + delay)
        return [.schedule(.flush, afterMilliseconds: delay)]
    }

    /// Records wait from an earlier run (found at start).
    mutating func resumed(queued: Int, now: WideInt) -> [Action] {
        guard queued > 0 else { return [] }
        return recorded(queued: queued, exposure: false, now: now)
    }

    /// `flush_analytics`, or the client closing: send now, then drain without waiting.
    mutating func flushRequested(queued: Int) -> [Action] {
        guard queued > 0 else { return [] }
        urgent = true
        switch phase {
        case .sending, .stopped: return []
        case .idle, .waiting, .backingOff: return [.cancel(.flush), .cancel(.retry)] + send()
        }
    }

    /// A timer fired.
    mutating func timerFired(_ timer: Timer, queued: Int) -> [Action] {
        switch (timer, phase) {
        case (.flush, .waiting), (.retry, .backingOff):
            if queued == 0 && suspects.isEmpty {
                phase = .idle
                return []
            }
            return send()
        default:
            return []
        }
    }

    /// The records the batch carries. Empty when none of them is held any more (evicted
    /// meanwhile): then the next part under suspicion goes, or the machine rests.
    mutating func sent(_ ids: [String]) -> [Action] {
        guard case .sending(_, let suspect) = phase else { return [] }
        guard ids.isEmpty else {
            phase = .sending(ids, suspect: suspect)
            return []
        }
        if !suspects.isEmpty { return send() }
        phase = .idle
        urgent = false
        return []
    }

    /// The answer to the batch in flight. `queued` counts records held before acting on it;
    /// `jitter` is a random number in 0..<1.
    mutating func answered(_ answer: BatchAnswer, queued: Int, now: WideInt, jitter: Double) -> [Action] {
        guard case .sending(let ids, let suspect) = phase, !ids.isEmpty else { return [] }
        switch answer {
        case .accepted:
            failures = 0
            return [.acknowledge(ids)] + next(queued: queued - ids.count, now: now)
        case .retryLater(let retryAfter, let reason):
            failures += 1
            // A part under suspicion is tried again as it was; any other batch is rebuilt.
            if suspect { suspects.insert(ids, at: 0) }
            let delay = max(backoff(jitter: jitter), min(retryAfter ?? 0, 3_600_000))
            phase = .backingOff
            return [.log(.warn, "batch not delivered (\(reason)); next try in \(delay) ms"),
                    .schedule(.retry, afterMilliseconds: delay)]
        case .tooLarge:
            batchLimit = max(1, min(batchLimit, ids.count) / 2)
            guard ids.count > 1 else {
                if settings.dropsOversizedRecord { return [.drop(ids, status: 413)] + next(queued: queued - 1, now: now) }
                return keepOversized(ids, suspect: suspect, jitter: jitter)
            }
            return split(ids) + send()
        case .refused(let status):
            guard ids.count > 1 else { return [.drop(ids, status: status)] + next(queued: queued - 1, now: now) }
            return split(ids) + send()
        case .unauthorized(let status):
            phase = .stopped
            suspects.removeAll()
            return [.log(.error, "the backend refused the api_key (HTTP \(status)): delivery stops until the config changes")]
        }
    }

    /// A lone record the backend found too large, on a lane that never drops: it stays first in
    /// line and is tried again after the backoff, loudly, since only the backend's limit can change.
    private mutating func keepOversized(_ ids: [String], suspect: Bool, jitter: Double) -> [Action] {
        failures += 1
        if suspect { suspects.insert(ids, at: 0) }
        let delay = backoff(jitter: jitter)
        phase = .backingOff
        return [.log(.error, "the backend refused a record as too large (HTTP 413); it is kept, next try in \(delay) ms"),
                .schedule(.retry, afterMilliseconds: delay)]
    }

    /// After a batch ended well: the next part under suspicion, the rest of the queue when it
    /// is worth a batch now, or a timer.
    private mutating func next(queued: Int, now: WideInt) -> [Action] {
        if !suspects.isEmpty || (queued > 0 && (urgent || queued >= settings.flushAt)) { return send() }
        urgent = false
        guard queued > 0 else {
            phase = .idle
            return []
        }
        phase = .waiting(due: now + settings.flushIntervalMilliseconds)
        return [.schedule(.flush, afterMilliseconds: settings.flushIntervalMilliseconds)]
    }

    /// Puts both halves of a refused batch first in line.
    private mutating func split(_ ids: [String]) -> [Action] {
        let middle = ids.count / 2
        suspects.insert(contentsOf: [Array(ids[..<middle]), Array(ids[middle...])], at: 0)
        return []
    }

    private mutating func send() -> [Action] {
        if let part = suspects.first {
            suspects.removeFirst()
            phase = .sending([], suspect: true)
            return [.send(.ids(part))]
        }
        phase = .sending([], suspect: false)
        return [.send(.oldest(batchLimit))]
    }

    /// Full jitter: a random delay between the minimum and a ceiling that doubles with each
    /// failure, capped.
    private func backoff(jitter: Double) -> WideInt {
        let exponent = min(failures - 1, 30)
        let ceiling = min(settings.retryMaxMilliseconds, settings.retryMinMilliseconds << exponent)
        let span = Double(max(0, ceiling - settings.retryMinMilliseconds))
        return settings.retryMinMilliseconds + WideInt(span * min(max(jitter, 0), 0.999_999))
    }
}

#if DEBUG
// Tests compare these; the release library never does and leaves their == out (20 KB in all).
extension BatchAnswer: Equatable {}
extension DeliveryMachine.Settings: Equatable {}
extension DeliveryMachine.Selection: Equatable {}
extension DeliveryMachine.Action: Equatable {}
#endif
