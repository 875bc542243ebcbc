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
///
/// Its code is inlinable so that the boundary's queue is specialized for its own `Encoded`: a
/// poll then runs no generic code.
public struct EventQueue<Encoded: EncodedEvent> {
    @usableFromInline struct Entry {
        @usableFromInline var encoded: Encoded?
        @usableFromInline let name: String
        @usableFromInline let seq: UInt64
        @usableFromInline let retention: EventRetention

        @inlinable init(encoded: Encoded?, name: String, seq: UInt64, retention: EventRetention) {
            self.encoded = encoded
            self.name = name
            self.seq = seq
            self.retention = retention
        }
    }

    /// Droppable events are dropped once this many events are queued (the last slot is the
    /// overflow notice's); also how many kept events make the queue backlogged.
    public let limit: Int
    /// Most async calls whose answers the host has not taken yet.
    public let answerLimit: Int
    @usableFromInline var items: [Entry] = []
    @usableFromInline var head = 0
    @usableFromInline var nextSeq: UInt64 = 1
    @usableFromInline var droppedCount: UInt64 = 0
    @usableFromInline var firstDroppedSeq: UInt64 = 0
    /// Queued events that are neither droppable nor answers.
    @usableFromInline var keptCount = 0
    /// Async calls accepted whose answers the host has not taken.
    @usableFromInline var answersOwed = 0

    /// Creates a queue dropping at `limit` events (at least 2) and owing at most `answerLimit`
    /// answers (at least 1).
    @inlinable public init(limit: Int, answerLimit: Int) {
        self.limit = max(2, limit)
        self.answerLimit = max(1, answerLimit)
    }

    /// Events waiting to be taken.
    @inlinable public var count: Int { items.count - head }

    /// Whether `limit` events that must not be lost (answers aside) wait for the host.
    @inlinable public var isBacklogged: Bool { keptCount >= limit }

    /// Accepts one more async call whose answer will be queued, or refuses it (false) when
    /// `answerLimit` answers are already owed to the host.
    @inlinable public mutating func reserveAnswer() -> Bool {
        guard answersOwed < answerLimit else { return false }
        answersOwed += 1
        return true
    }

    /// Queues the event by its retention rule.
    @inlinable public mutating func push(_ event: Event) {
        switch event.retention {
        case .droppable:
            if droppedCount > 0 || count >= limit - 1 {
                drop()
                return
            }
        case .latestState:
            if count >= limit - 1, let index = queuedIndex(of: event.name) {
                // Out of memory for the newer one: the older stays, a state rather than none.
                if let newer = Encoded(event, seq: items[index].seq) {
                    items[index].encoded?.discard()
                    items[index].encoded = newer
                }
                return
            }
            queueOverflowReport()
        case .kept, .answer:
            queueOverflowReport()
        }
        let seq = takeSeq()
        if !append(event, seq: seq) {
            // Out of memory for it: dropped as a log would be, so the notice names its seq.
            markDropped(seq)
            if event.retention == .answer { answersOwed -= 1 }
        }
    }

    /// Takes the oldest event, queueing the overflow report first when events were dropped and
    /// there is room for it.
    @inlinable public mutating func pop() -> Encoded? {
        if head == items.count, count < limit - 1 { queueOverflowReport() }
        guard head < items.count else { return nil }
        // Taken out of its slot rather than copied with it: no reference counted twice.
        let encoded = items[head].encoded.take()
        let retention = items[head].retention
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        switch retention {
        case .droppable: break
        case .answer: answersOwed -= 1
        case .kept, .latestState: keptCount -= 1
        }
        if count < limit - 1 { queueOverflowReport() }
        return encoded
    }

    /// Discards every event not taken (the client is gone); the queue is empty after it.
    @inlinable public mutating func discardAll() {
        while head < items.count {
            items[head].encoded.take()?.discard()
            head += 1
        }
        items.removeAll()
        head = 0
        (keptCount, answersOwed, droppedCount) = (0, 0, 0)
    }

    @inlinable mutating func takeSeq() -> UInt64 {
        defer { nextSeq += 1 }
        return nextSeq
    }

    /// Queues the event numbered `seq`; false when there was no memory to hold it.
    @inlinable mutating func append(_ event: Event, seq: UInt64) -> Bool {
        guard let encoded = Encoded(event, seq: seq) else { return false }
        items.append(Entry(encoded: encoded, name: event.name, seq: seq, retention: event.retention))
        switch event.retention {
        case .droppable, .answer: break
        case .kept, .latestState: keptCount += 1
        }
        return true
    }

    @inlinable mutating func drop() { markDropped(takeSeq()) }

    @inlinable mutating func markDropped(_ seq: UInt64) {
        if droppedCount == 0 { firstDroppedSeq = seq }
        droppedCount += 1
    }

    /// The queued snapshot named `name` not yet taken, newest first.
    @inlinable func queuedIndex(of name: String) -> Int? {
        var index = items.count - 1
        while index >= head {
            if items[index].name == name && items[index].retention == .latestState { return index }
            index -= 1
        }
        return nil
    }

    /// Queues `events_overflowed` for the events dropped since the last report, right after
    /// them: its `seq` is the one after the last dropped event's.
    @inlinable mutating func queueOverflowReport() {
        guard droppedCount > 0 else { return }
        let dropped = droppedCount
        let first = firstDroppedSeq
        droppedCount = 0
        let seq = takeSeq()
        if !append(.overflowReport(dropped: dropped, firstSeq: first), seq: seq) {
            // The notice's own seq joins the range it will name when there is memory again.
            (droppedCount, firstDroppedSeq) = (dropped + 1, first)
        }
    }
}

extension Event {
    /// `events_overflowed`: `dropped` events were dropped, from `firstSeq` on.
    @usableFromInline static func overflowReport(dropped: UInt64, firstSeq first: UInt64) -> Event {
        Event("events_overflowed") { writer in
            writer.key("dropped")
            writer.number(JSONNumber(validatedText: String(dropped)))
            writer.key("first_dropped_seq")
            writer.number(JSONNumber(validatedText: String(first)))
            writer.key("last_dropped_seq")
            writer.number(JSONNumber(validatedText: String(first + dropped - 1)))
        }
    }
}

