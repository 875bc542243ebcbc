/// The ordered, bounded queue of one client's encoded events.
///
/// Every event gets the next `seq`. When the queue is full, new events are dropped but still
/// consume their `seq`, and an `events_overflowed` event naming the dropped range is queued as
/// soon as there is room again: nothing is lost silently, and a host can see the gap.
public struct EventQueue: Sendable {
    /// Most events held at once; the last slot is kept for the overflow report.
    public let limit: Int
    private var items: [[UInt8]] = []
    private var head = 0
    private var nextSeq: UInt64 = 1
    private var droppedCount: UInt64 = 0
    private var firstDroppedSeq: UInt64 = 0

    /// Creates a queue holding at most `limit` events (at least 2).
    public init(limit: Int) { self.limit = max(2, limit) }

    /// Events waiting to be taken.
    public var count: Int { items.count - head }

    /// Assigns the next `seq` and queues the event, or counts it as dropped when full.
    public mutating func push(_ event: Event) {
        let seq = nextSeq
        nextSeq += 1
        if droppedCount > 0 || count >= limit - 1 {
            if droppedCount == 0 { firstDroppedSeq = seq }
            droppedCount += 1
            return
        }
        items.append(event.encoded(seq: seq))
    }

    /// Takes the oldest event, queueing the overflow report first when events were dropped.
    public mutating func pop() -> [UInt8]? {
        guard head < items.count else {
            reportOverflowIfNeeded()
            guard head < items.count else { return nil }
            return take()
        }
        let event = take()
        reportOverflowIfNeeded()
        return event
    }

    private mutating func take() -> [UInt8] {
        let event = items[head]
        items[head] = []
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return event
    }

    private mutating func reportOverflowIfNeeded() {
        guard droppedCount > 0, count < limit - 1 else { return }
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
        items.append(report.encoded(seq: nextSeq))
        nextSeq += 1
    }
}
