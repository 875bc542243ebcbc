import Dispatch
import PaywireCore
import Synchronization

/// Everything behind one `paywire_client_t *`: the core client under its lock (one owner for
/// its state), the event hub, and the serial queue that runs async calls in order.
final class ClientHandle: Sendable {
    /// The client and whether `paywire_client_free` has begun, guarded together: the client is
    /// only ever touched inside `state.withLock`.
    private struct State {
        let client: Client
        var closed = false
    }

    private let state: Locked<State>
    let events: EventHub
    private let bridge: ClientBridge
    private let asyncCalls = DispatchQueue(label: "paywire.calls")
    private let nextCallId = Atomic<UInt64>(1)

    init(client: Client, events: EventHub, bridge: ClientBridge) {
        state = Locked(State(client: client))
        self.events = events
        self.bridge = bridge
    }

    /// Runs one call under the client's lock; CLOSED once freeing has begun.
    func call(method: String, params: [UInt8]?) -> CallResponse {
        state.withLock { state in
            guard !state.closed else {
                return .failure(WireError(.closed, "the client is being freed"))
            }
            return state.client.call(method: method, params: params)
        }
    }

    /// Queues a call; its envelope arrives later as a `call_result` event with the returned id.
    func callAsync(method: String, params: [UInt8]?) -> UInt64 {
        let callId = nextCallId.wrappingAdd(1, ordering: .relaxed).oldValue
        asyncCalls.async { [self] in
            let outcome: CallOutcome? = state.withLock { state in
                guard !state.closed else { return nil }
                let outcome = state.client.call(method: method, params: params, allowPending: true)
                // Registered under the client's lock: no completion can run before it.
                if case .pending(let token) = outcome { bridge.awaitCompletion(token: token, callId: callId, method: method) }
                return outcome
            }
            if case .done(let response)? = outcome {
                events.emit(ClientBridge.callResult(callId: callId, method: method, response: response))
            }
        }
        return callId
    }

    /// Runs a timer's work under the client's lock; nothing once freeing has begun.
    func fireTimer(_ token: UInt64) {
        state.withLock { state in
            guard !state.closed else { return }
            state.client.timerFired(token)
        }
    }

    /// Stops the client: later calls get CLOSED, queued async calls are skipped, pollers wake,
    /// and no callback runs once this returns.
    func close() {
        state.withLock { $0.closed = true }  // waits for a call in progress
        if !events.isDeliveryThread {
            asyncCalls.sync {}
        }
        events.close()
    }
}

/// What the core asks of the boundary while it runs: timers (a dispatch timer that calls back
/// under the client's lock) and the answers of pending async calls (as `call_result` events).
/// It finds the client by its handle token, so a freed client's timers do nothing (and no weak
/// reference makes every retain of the client take the runtime's slow path).
final class ClientBridge: TimerScheduler, CallCompletionSink, @unchecked Sendable {
    private let token = Locked<UInt?>(nil)
    private let events: EventHub
    /// Pending call token -> the async call waiting for it.
    private let pendingCalls = Locked<[UInt64: (callId: UInt64, method: String)]>([:])
    private static let queue = DispatchQueue(label: "paywire.timers")

    init(events: EventHub) { self.events = events }

    func awaitCompletion(token: UInt64, callId: UInt64, method: String) {
        pendingCalls.withLock { $0[token] = (callId, method) }
    }

    func complete(token: UInt64, response: CallResponse) {
        guard let call = pendingCalls.withLock({ $0.removeValue(forKey: token) }) else { return }
        events.emit(ClientBridge.callResult(callId: call.callId, method: call.method, response: response))
    }

    /// The `call_result` event of an async call.
    static func callResult(callId: UInt64, method: String, response: CallResponse) -> Event {
        Event("call_result") { writer in
            writer.key("call_id")
            writer.raw(Array(String(callId).utf8))
            writer.member("method", method)
            writer.member("status", Int(response.status.rawValue))
            writer.member("status_name", response.status.name)
            writer.key("envelope")
            writer.raw(response.envelope)
        }
    }

    func attach(_ clientToken: UnsafeMutableRawPointer) {
        token.withLock { $0 = UInt(bitPattern: clientToken) }
    }

    func schedule(afterMilliseconds milliseconds: Int, token timerToken: UInt64) {
        ClientBridge.queue.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [self] in
            guard let bits = token.withLock({ $0 }) else { return }
            HandleTable.lookup(UnsafeMutableRawPointer(bitPattern: bits))?.fireTimer(timerToken)
        }
    }
}

/// The table of live clients. A `paywire_client_t *` is a token looked up here, never
/// dereferenced, so a freed or made-up pointer is answered with INVALID_HANDLE, not a crash.
enum HandleTable {
    private static let table = Locked<(next: UInt, clients: [UInt: ClientHandle])>((1, [:]))
    /// Tokens are spaced and offset so that small integers and typical heap addresses miss.
    private static let tokenBase: UInt = 0x5057_0000_0000

    static func register(_ handle: ClientHandle) -> UnsafeMutableRawPointer? {
        let token: UInt = table.withLock { table in
            let id = table.next
            table.next += 1
            table.clients[id] = handle
            return tokenBase &+ id &* 16
        }
        return UnsafeMutableRawPointer(bitPattern: token)
    }

    static func lookup(_ pointer: UnsafeMutableRawPointer?) -> ClientHandle? {
        guard let id = id(of: pointer) else { return nil }
        return table.withLock { $0.clients[id] }
    }

    /// Removes the client; returns it so the caller can close it outside the table's lock.
    static func remove(_ pointer: UnsafeMutableRawPointer?) -> ClientHandle? {
        guard let id = id(of: pointer) else { return nil }
        return table.withLock { $0.clients.removeValue(forKey: id) }
    }

    private static func id(of pointer: UnsafeMutableRawPointer?) -> UInt? {
        guard let pointer else { return nil }
        let token = UInt(bitPattern: pointer)
        guard token > tokenBase, (token &- tokenBase) % 16 == 0 else { return nil }
        return (token &- tokenBase) / 16
    }
}
