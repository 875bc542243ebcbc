/// One event on its way to the host: a name and its payload members.
///
/// The per-client `seq` is assigned when the event enters the queue, so the order hosts see is
/// the order the core emitted in.
public struct Event: Sendable {
    /// The wire name (`log`, `call_result`, `did_load_latest_profile`, ...).
    public let name: String
    /// The payload as one encoded JSON object; its members are spliced after `event` and `seq`.
    public let payload: [UInt8]

    /// Creates an event whose payload members are written by `body`.
    public init(_ name: String, _ body: (inout JSONWriter) -> Void = { _ in }) {
        self.name = name
        var writer = JSONWriter()
        writer.object(body)
        self.payload = writer.bytes
    }

    /// The complete event JSON with its sequence number.
    public func encoded(seq: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + name.utf8.count + 32)
        var head = JSONWriter()
        head.object { writer in
            writer.member("event", name)
            writer.key("seq")
            writer.number(JSONNumber(validatedText: String(seq)))
        }
        bytes.append(contentsOf: head.bytes.dropLast())  // drop "}"
        if payload.count > 2 {
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: payload.dropFirst().dropLast())  // members without braces
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}

/// Where the core sends events. The boundary implements it with an ordered, bounded queue.
public protocol EventSink: AnyObject, Sendable {
    /// Queues an event; never blocks on the host and never runs host code on the caller's stack.
    func emit(_ event: Event)
}

/// Severity of `log` events, in increasing verbosity.
public enum LogLevel: String, CaseIterable, Comparable, Sendable {
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
