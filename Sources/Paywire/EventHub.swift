import PaywireCore
import PaywireModel
import PaywireWire
import CPosix

/// The host's event callback and its user data, as given to `paywire_client_set_event_handler`.
struct EventHandler: @unchecked Sendable {
    let function: @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void
    let userData: UnsafeMutableRawPointer?
    let free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?

    func releaseUserData() { free?(userData) }
}

/// One client's event stream: the ordered queue, the pollers waiting on it, and the delivery
/// of events to a handler on a queue the core owns (never on a caller's stack).
final class EventHub: EventSink, @unchecked Sendable {
    enum PollOutcome {
        /// The event, for the host to free.
        case event(UnsafeMutablePointer<CChar>)
        case timedOut
        case closed
        case handlerSet
    }

    private let monitor = Monitor()
    private let delivery = SerialWorker()
    // Guarded by `monitor`, which gives their accesses exclusivity (the runtime's check of each
    // is left out: it cost more than the lock on the poll path):
    @exclusivity(unchecked) private var queue: EventQueue<HostEventString>
    @exclusivity(unchecked) private var handler: EventHandler?
    private var deliveryScheduled = false
    private var closed = false
    private var deliveringThread: pthread_t?

    init(limit: Int, answerLimit: Int) { queue = EventQueue(limit: limit, answerLimit: answerLimit) }

    deinit { queue.discardAll() }

    var isBacklogged: Bool { monitor.locked { queue.isBacklogged } }

    /// Accepts one more async call whose `call_result` the host will be owed; false (the call
    /// is refused with BUSY) when `async_call_limit` answers are already owed.
    func reserveAnswer() -> Bool { monitor.locked { queue.reserveAnswer() } }

    func emit(_ event: Event) {
        monitor.locked {
            guard !closed else { return }
            queue.push(event)
            scheduleDeliveryIfNeeded()
            monitor.broadcast()
        }
    }

    /// Takes the next event, waiting up to `timeoutMs` for one.
    @_optimize(speed) func poll(timeoutMs: Int32) -> PollOutcome {
        monitor.locked {
            // The clock is read only once there is something to wait for: a drain of queued
            // events never reads it (a clock read cost as much as the rest of a poll).
            var deadline: timespec?
            while true {
                if closed { return .closed }
                if handler != nil { return .handlerSet }
                if let event = queue.pop() { return .event(event.pointer) }
                if timeoutMs == 0 { return .timedOut }
                let until = deadline ?? Monitor.deadline(afterMilliseconds: timeoutMs)
                deadline = until
                if Monitor.hasPassed(until) { return .timedOut }
                _ = monitor.wait(until: until)
            }
        }
    }

    /// Whether the caller is inside a handler callback of this hub.
    var isDeliveryThread: Bool {
        monitor.locked { deliveringThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Installs (or with nil removes) the handler. The old user data is released exactly once,
    /// before this returns and after any callback already running with it has returned, so the
    /// host may reuse it at once. Never called on the delivery thread (the export refuses that).
    func setHandler(_ next: EventHandler?) {
        let previous: EventHandler? = monitor.locked {
            let previous = handler
            handler = next
            scheduleDeliveryIfNeeded()
            monitor.broadcast()
            return previous
        }
        if let previous { delivery.sync { previous.releaseUserData() } }
    }

    /// Stops the stream: pollers return CLOSED, no callback starts after this returns (unless
    /// called from inside a callback, where the running one finishes first), and the handler's
    /// user data is released once.
    func close() {
        let (last, insideCallback): (EventHandler?, Bool) = monitor.locked {
            closed = true
            queue.discardAll()  // nobody can take them now: pollers get CLOSED, callbacks stop
            monitor.broadcast()
            let last = handler
            handler = nil
            let inside = deliveringThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            return (last, inside)
        }
        if insideCallback {
            delivery.async { last?.releaseUserData() }
        } else {
            delivery.sync { last?.releaseUserData() }
        }
    }

    private func scheduleDeliveryIfNeeded() {
        guard handler != nil, !deliveryScheduled, queue.count > 0 else { return }
        deliveryScheduled = true
        delivery.async { self.deliver() }
    }

    private func deliver() {
        while true {
            let next: (EventHandler, HostEventString)? = monitor.locked {
                guard !closed, let handler, let event = queue.pop() else {
                    deliveryScheduled = false
                    deliveringThread = nil
                    return nil
                }
                deliveringThread = pthread_self()
                return (handler, event)
            }
            guard let (handler, event) = next else { return }
            handler.function(event.pointer, handler.userData)
            event.discard()  // the host's for the callback only
        }
    }
}
