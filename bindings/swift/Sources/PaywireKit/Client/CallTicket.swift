import Foundation

/// The outcome of one async call, settled once: by its `call_result`, by a refusal at the call
/// (`busy`), or by the client closing (`closed`). It may be settled before anyone waits; the one
/// waiter is resumed exactly once, whichever comes first, and a second settlement is ignored.
final class CallTicket: Sendable {
    typealias Outcome = Result<JSONValue, PaywireError>
    typealias Waiter = @Sendable (Outcome) -> Void

    private enum State {
        case open
        case waiting(Waiter)
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

    /// Settles the ticket; true when this settled it (false when it was settled already). The
    /// waiter runs on the caller's thread (the pump's), after the lock is released.
    @discardableResult
    func settle(_ outcome: Outcome) -> Bool {
        let (settled, waiter): (Bool, Waiter?) = state.withLock { state in
            switch state {
            case .open:
                state = .settled(outcome)
                return (true, nil)
            case .waiting(let waiter):
                state = .taken
                return (true, waiter)
            case .settled, .taken:
                return (false, nil)
            }
        }
        waiter?(outcome)
        return settled
    }

    /// Gives the outcome to `waiter`: at once when it is settled already, else when it is. One
    /// waiter per ticket; a second one hears an `internal` error.
    private func whenSettled(_ waiter: @escaping Waiter) {
        let ready: Outcome? = state.withLock { state in
            switch state {
            case .open:
                state = .waiting(waiter)
                return nil
            case .settled(let outcome):
                state = .taken
                return outcome
            case .waiting, .taken:
                return .failure(PaywireError.binding(.internal, "a call's outcome was awaited twice"))
            }
        }
        if let ready { waiter(ready) }
    }

    /// Waits for the outcome. One waiter per ticket.
    var outcome: Outcome {
        get async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                whenSettled { continuation.resume(returning: $0) }
            }
        }
    }

    /// The success value, or the error thrown.
    func value() async throws(PaywireError) -> JSONValue { try await outcome.get() }

    /// Blocks the calling thread until the outcome comes, for at most `timeout` seconds; nil when
    /// it did not come in time. Only for a call the pump settles without the caller's thread
    /// (the pump never waits for the main actor), so the wait ends with the call.
    func wait(timeout: TimeInterval) -> Outcome? {
        let arrived = DispatchSemaphore(value: 0)
        let outcome = Locked<Outcome?>(nil)
        whenSettled { settled in
            outcome.withLock { $0 = settled }
            arrived.signal()
        }
        guard arrived.wait(timeout: .now() + timeout) == .success else { return nil }
        return outcome.withLock { $0 }
    }
}
