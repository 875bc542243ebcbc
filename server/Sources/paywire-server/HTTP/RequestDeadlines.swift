/// When a connection's request must have arrived: its head `headMillis` after its first byte,
/// its body `bodyMillis` after its head. Bytes that trickle in do not move either deadline (the
/// idle timer they do reset is for connections waiting between requests), so a client that paces
/// its bytes holds a connection for a bounded time. Pure: the caller passes the time, on a clock
/// that only moves forward, and arms the one timer it is told to.
struct RequestDeadlines: Sendable {
    enum Phase: Equatable {
        /// Between requests: the connection's idle timer applies.
        case idle
        case head(until: Int)
        case body(until: Int)
        /// The request is whole and the server is answering; `nextArrived`: bytes of the next
        /// request came meanwhile, so its head's time runs from the end of this answer.
        case answering(nextArrived: Bool)
    }

    enum Action: Equatable {
        case arm(at: Int)
        case disarm
    }

    /// Which part of a request came too late.
    enum Overdue: Equatable {
        case head, body
    }

    private(set) var phase = Phase.idle
    let headMillis: Int
    let bodyMillis: Int

    init(headMillis: Int, bodyMillis: Int) {
        self.headMillis = headMillis
        self.bodyMillis = bodyMillis
    }

    mutating func bytesArrived(now: Int) -> Action? {
        switch phase {
        case .idle:
            phase = .head(until: now + headMillis)
            return .arm(at: now + headMillis)
        case .answering:
            phase = .answering(nextArrived: true)
            return nil
        case .head, .body:
            return nil
        }
    }

    mutating func headParsed(now: Int) -> Action? {
        phase = .body(until: now + bodyMillis)
        return .arm(at: now + bodyMillis)
    }

    mutating func requestEnded() -> Action? {
        phase = .answering(nextArrived: false)
        return .disarm
    }

    mutating func responseEnded(now: Int) -> Action? {
        guard case .answering(let nextArrived) = phase else { return nil }
        guard nextArrived else {
            phase = .idle
            return .disarm
        }
        phase = .head(until: now + headMillis)
        return .arm(at: now + headMillis)
    }

    /// What is overdue at `now`, if anything.
    func overdue(now: Int) -> Overdue? {
        switch phase {
        case .head(let until) where now >= until: return .head
        case .body(let until) where now >= until: return .body
        default: return nil
        }
    }
}
