/// One event on its way to the host: a name and its payload members.
///
/// The per-client `seq` is assigned when the event enters the queue, so the order hosts see is
/// the order the core emitted in.
public struct Event: Sendable {
    /// The wire name (`log`, `call_result`, `did_load_latest_profile`, ...).
    public let name: String
    /// What the queue may do with it when the host falls behind.
    public let retention: EventRetention
    /// The payload as one encoded JSON object; its members are spliced after `event` and `seq`.
    public let payload: [UInt8]

    /// Creates an event whose payload members are written by `body`. Events are kept unless
    /// said otherwise: dropping one must be a decision.
    public init(_ name: String, retention: EventRetention = .kept, _ body: (inout JSONWriter) -> Void = { _ in }) {
        self.name = name
        self.retention = retention
        var writer = JSONWriter()
        writer.object(body)
        self.payload = writer.bytes
    }

    /// The complete event JSON with its sequence number.
    public func encoded(seq: UInt64) -> [UInt8] {
        let (head, members) = parts(seq: seq)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(head.count + members.count + 2)
        bytes.append(contentsOf: head)
        if !members.isEmpty {
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: members)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// What `encoded(seq:)` is written from, for a holder that writes it in place: the head
    /// `{"event":...,"seq":N` and the payload's members without braces (empty when it has none).
    /// The event is the head, then a comma and the members when there are any, then `}`.
    public func parts(seq: UInt64) -> (head: ArraySlice<UInt8>, members: ArraySlice<UInt8>) {
        var head = JSONWriter()
        head.object { writer in
            writer.member("event", name)
            writer.key("seq")
            writer.number(JSONNumber(validatedText: String(seq)))
        }
        let members = payload.count > 2 ? payload.dropFirst().dropLast() : payload[0..<0]
        return (head.bytes.dropLast(), members)  // the head without its "}"
    }
}

/// What the event queue may do with an event when the host falls behind (docs/operations/threads.md).
public enum EventRetention: Sendable, Equatable {
    /// Nobody waits for it (`log`): when the queue is full it is dropped, and an
    /// `events_overflowed` notice names it.
    case droppable
    /// A snapshot of state (`did_load_latest_profile`): when the queue is full, a newer one takes
    /// the place (and `seq`) of the one still queued, so the newest state is never lost.
    case latestState
    /// Someone waits for it or must act on it (`host_request`, the events that drive a screen):
    /// never dropped. Its sources stop when the host falls behind (`EventSink.isBacklogged`).
    case kept
    /// The `call_result` of an async call: never dropped; it counts against `async_call_limit`
    /// until the host has taken it.
    case answer
}

/// Where the core sends events. The boundary implements it with an ordered, bounded queue.
public protocol EventSink: AnyObject, Sendable {
    /// Queues an event; never blocks on the host and never runs host code on the caller's stack.
    func emit(_ event: Event)
    /// Whether the host has fallen behind: `event_queue_limit` events it must not lose wait
    /// for it. Work that would add more (a screen's input, a host request) is then refused
    /// with `busy` where it enters, so the queue stays bounded whether the host polls or not.
    var isBacklogged: Bool { get }
}

/// Severity of `log` events, in increasing verbosity.
public enum LogLevel: String, WireEnum, Comparable, Sendable {
    case error, warn, info, verbose, debug

    private var rank: Int {
        switch self {
        case .error: return 0
        case .warn: return 1
        case .info: return 2
        case .verbose: return 3
        case .debug: return 4
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}
