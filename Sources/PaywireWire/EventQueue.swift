/// The ordered, bounded queue of one client's encoded events, and the rules for a host that
/// falls behind (docs/operations/threads.md):
///
/// - A droppable event (`log`) finding `limit - 1` events queued is dropped; its `seq` is
///   consumed, and an `events_overflowed` notice naming the dropped range follows it at once
///   (before the next event that is kept, or when the host makes room). The one gap a host can
///   see in `seq` is the range the notice that follows it names.
/// - A state snapshot finding the queue full takes the place and `seq` of the same snapshot
///   still queued, so the newest state is never lost and the queue does not grow.
/// - Everything else is kept. Its sources are bounded where the work enters: an answer is
///   queued only for an async call that `reserveAnswer` accepted, and other kept work is
///   refused while `isBacklogged`.
public struct EventQueue: Sendable {
    private struct Entry {
        package var bytes: [UInt8]
        package let name: String
        package let seq: UInt64
        package let retention: EventRetention
    }

    /// Droppable events are dropped once this many events are queued (the last slot is the
    /// overflow notice's); also how many kept events make the queue backlogged.
    public let limit: Int
    /// Most async calls whose answers the host has not taken yet.
    public let answerLimit: Int
    private var items: [Entry] = []
    private var head = 0
    private var nextSeq: UInt64 = 1
    private var droppedCount: UInt64 = 0
    private var firstDroppedSeq: UInt64 = 0
    /// Queued events that are neither droppable nor answers.
    private var keptCount = 0
    /// Async calls accepted whose answers the host has not taken.
    private var answersOwed = 0

    /// Creates a queue dropping at `limit` events (at least 2) and owing at most `answerLimit`
    /// answers (at least 1).
    public init(limit: Int, answerLimit: Int) {
        self.limit = max(2, limit)
        self.answerLimit = max(1, answerLimit)
    }

    /// Events waiting to be taken.
    public var count: Int { items.count - head }

    /// Whether `limit` events that must not be lost (answers aside) wait for the host.
    public var isBacklogged: Bool { keptCount >= limit }

    /// Accepts one more async call whose answer will be queued, or refuses it (false) when
    /// `answerLimit` answers are already owed to the host.
    public mutating func reserveAnswer() -> Bool {
        guard answersOwed < answerLimit else { return false }
        answersOwed += 1
        return true
    }

    /// Queues the event by its retention rule.
    public mutating func push(_ event: Event) {
        switch event.retention {
        case .droppable:
            if droppedCount > 0 || count >= limit - 1 {
                drop()
                return
            }
        case .latestState:
            if count >= limit - 1, let index = queuedIndex(of: event.name) {
                items[index].bytes = event.encoded(seq: items[index].seq)
                return
            }
            queueOverflowReport()
        case .kept, .answer:
            queueOverflowReport()
        }
        append(event, seq: takeSeq())
    }

    /// Takes the oldest event, queueing the overflow report first when events were dropped and
    /// there is room for it.
    public mutating func pop() -> [UInt8]? {
        if head == items.count, count < limit - 1 { queueOverflowReport() }
        guard head < items.count else { return nil }
        let entry = items[head]
        items[head].bytes = []
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        switch entry.retention {
        case .droppable: break
        case .answer: answersOwed -= 1
        case .kept, .latestState: keptCount -= 1
        }
        if count < limit - 1 { queueOverflowReport() }
        return entry.bytes
    }

    private mutating func takeSeq() -> UInt64 {
        defer { nextSeq += 1 }
        return nextSeq
    }

    private mutating func append(_ event: Event, seq: UInt64) {
        items.append(Entry(bytes: event.encoded(seq: seq), name: event.name, seq: seq, retention: event.retention))
        switch event.retention {
        case .droppable, .answer: break
        case .kept, .latestState: keptCount += 1
        }
    }

    private mutating func drop() {
        let seq = takeSeq()
        if droppedCount == 0 { firstDroppedSeq = seq }
        droppedCount += 1
    }

    /// The queued snapshot named `name` not yet taken, newest first.
    private func queuedIndex(of name: String) -> Int? {
        var index = items.count - 1
        while index >= head {
            if items[index].name == name && items[index].retention == .latestState { return index }
            index -= 1
        }
        return nil
    }

    /// Queues `events_overflowed` for the events dropped since the last report, right after
    /// them: its `seq` is the one after the last dropped event's.
    private mutating func queueOverflowReport() {
        guard droppedCount > 0 else { return }
        let dropped = droppedCount
        let first = firstDroppedSeq
        droppedCount = 0
        let report = Event("events_overflowed") { writer in
            writer.key("dropped")
            writer.number(JSONNumber(validatedText: String(dropped)))
            writer.key("first_dropped_seq")
            writer.number(JSONNumber(validatedText: String(first)))
            writer.key("last_dropped_seq")
            writer.number(JSONNumber(validatedText: String(first + dropped - 1)))
        }
        append(report, seq: takeSeq())
    }
}
