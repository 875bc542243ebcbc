/// The outcome of one async call, settled once: by its `call_result`, by a refusal at the call
/// (`busy`), or by the client closing (`closed`). It may be settled before anyone waits; the one
/// waiter is resumed exactly once, whichever comes first, and a second settlement is ignored.
final class CallTicket: Sendable {
    typealias Outcome = Result<JSONValue, PaywireError>

    private enum State {
        case open
        case waiting(CheckedContinuation<Outcome, Never>)
        case settled(Outcome)
        case taken
    }

    private let state = Locked(State.open)

    /// A ticket already settled (a call refused before it was queued).
    static func settled(_ outcome: Outcome) -> CallTicket {
        let ticket = CallTicket()
        ticket.settle(outcome)
        return ticket
    }

    /// Settles the ticket; true when this settled it (false when it was settled already).
    @discardableResult
    func settle(_ outcome: Outcome) -> Bool {
        let (settled, waiter): (Bool, CheckedContinuation<Outcome, Never>?) = state.withLock { state in
            switch state {
            case .open:
                state = .settled(outcome)
                return (true, nil)
            case .waiting(let continuation):
                state = .taken
                return (true, continuation)
            case .settled, .taken:
                return (false, nil)
            }
        }
        waiter?.resume(returning: outcome)
        return settled
    }

    /// Waits for the outcome. One waiter per ticket.
    var outcome: Outcome {
        get async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let ready: Outcome? = state.withLock { state in
                    switch state {
                    case .open:
                        state = .waiting(continuation)
                        return nil
                    case .settled(let outcome):
                        state = .taken
                        return outcome
                    case .waiting, .taken:
                        return .failure(PaywireError.binding(.internal, "a call's outcome was awaited twice"))
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    /// The success value, or the error thrown.
    func value() async throws(PaywireError) -> JSONValue { try await outcome.get() }
}
