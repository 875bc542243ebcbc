import CPosix
import PaywireCore
import PaywireModel
import PaywireWire
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
    private let asyncCalls = SerialWorker()
    private let nextCallId = Atomic<UInt64>(1)
    /// The built-in HTTP client, when the config asks for it.
    private let transport: BoundaryTransport?
    /// Woken whenever an HTTP answer was handed to the client, so closing can wait for the
    /// last analytics batch.
    private let settled = Monitor()

    init(client: Client, events: EventHub, bridge: ClientBridge, transport: BoundaryTransport?) {
        state = Locked(State(client: client))
        self.events = events
        self.bridge = bridge
        self.transport = transport
    }

    /// Runs one call under the client's lock; CLOSED once freeing has begun. A call that waits
    /// on the core's own work (the built-in HTTP client within its time budget) blocks here,
    /// without the lock, until it is answered or its wait limit passes.
    @_optimize(speed) func call(method: MethodName, params: [UInt8]?) -> CallResponse {
        let (outcome, waiter): (CallOutcome, SyncWaiter?) = state.withLock { state in
            guard !state.closed else {
                return (.done(.failure(WireError(.closed, "the client is being freed"))), nil)
            }
            let outcome = state.client.call(method, params: params, mode: .sync)
            // Registered under the client's lock: no completion can run before it.
            if case .pending(let token, _) = outcome { return (outcome, bridge.awaitSync(token: token)) }
            return (outcome, nil)
        }
        switch outcome {
        case .done(let response):
            return response
        case .pending(let token, let limit):
            return bridge.wait(waiter, token: token, limitMilliseconds: limit, method: method.name)
        }
    }

    /// The built-in HTTP client's answer, handed to the client under its lock.
    func httpFinished(token: UInt64, outcome: HTTPOutcome) {
        state.withLock { state in
            guard !state.closed else { return }
            state.client.httpFinished(token: token, outcome: outcome)
        }
        settled.locked { settled.broadcast() }
    }

    /// Queues a call; its envelope arrives later as a `call_result` event with the returned id.
    /// Nil, with nothing queued, when the host has not yet taken `async_call_limit` answers.
    func callAsync(method: MethodName, params: [UInt8]?) -> UInt64? {
        guard events.reserveAnswer() else { return nil }
        let callId = nextCallId.wrappingAdd(1, ordering: .relaxed).oldValue
        asyncCalls.async { [self] in
            let outcome: CallOutcome? = state.withLock { state in
                guard !state.closed else { return nil }
                let outcome = state.client.call(method, params: params, mode: .async)
                // Registered under the client's lock: no completion can run before it.
                if case .pending(let token, _) = outcome { bridge.awaitCompletion(token: token, callId: callId, method: method.name) }
                return outcome
            }
            if case .done(let response)? = outcome {
                events.emit(ClientBridge.callResult(callId: callId, method: method.name, response: response))
            }
        }
        return callId
    }

    /// Emits the profile snapshot a newly set event handler starts from, under the client's lock.
    func eventHandlerAttached() {
        state.withLock { state in
            guard !state.closed else { return }
            state.client.eventHandlerAttached()
        }
    }

    /// Runs a timer's work under the client's lock; nothing once freeing has begun.
    func fireTimer(_ token: UInt64) {
        state.withLock { state in
            guard !state.closed else { return }
            state.client.timerFired(token)
        }
    }

    /// Stops the client, the one place a client is shut down: later calls get CLOSED, queued
    /// async calls are skipped, blocked synchronous calls and pollers wake, HTTP transfers are
    /// aborted, the `storage_dir` lock is released (now, not whenever the last reference goes),
    /// and no callback runs once this returns. The core's steps are `Client+Shutdown.swift`.
    func close() {
        // A last analytics batch, within its budget: freeing never blocks longer than that.
        let budget: Int? = state.withLock { state in state.closed ? nil : state.client.beginClosing() }
        if let budget { waitUntilSettled(milliseconds: budget) }
        state.withLock { state in  // waits for a call in progress
            state.closed = true
            state.client.releaseFiles()
            // Breaks the cycles the parts' pending replies make (each holds the part that asked).
            state.client.tearDown()
        }
        bridge.close()
        transport?.close()
        if !events.isDeliveryThread {
            asyncCalls.sync {}
        }
        events.close()
    }

    /// Waits until the client has nothing of its own in flight, or `milliseconds` passed.
    private func waitUntilSettled(milliseconds: Int) {
        let deadline = Monitor.deadline(afterMilliseconds: Int32(clamping: milliseconds))
        // Checked under `settled`'s mutex, which `httpFinished` takes to wake us: no wake-up is lost.
        settled.locked {
            while !state.withLock({ $0.client.isSettled }) && !Monitor.hasPassed(deadline) {
                _ = settled.wait(until: deadline)
            }
        }
    }
}

/// What the core asks of the boundary while it runs: timers (a worker thread that calls back
/// under the client's lock) and the answers of pending async calls (as `call_result` events).
/// It finds the client by its handle token, so a freed client's timers do nothing (and no weak
/// reference makes every retain of the client take the runtime's slow path).
final class ClientBridge: TimerScheduler, CallCompletionSink, @unchecked Sendable {
    /// The client's handle token, reserved before the client is built (`HandleTable.reserve`):
    /// until the handle fills it, a lookup finds nothing, as after a free.
    private let token: UInt
    private let events: EventHub
    /// Pending call token -> the async call waiting for it.
    private let pendingCalls = Locked<[UInt64: (callId: UInt64, method: String)]>([:])
    /// Pending call token -> the synchronous call blocked on it.
    private let syncWaiters = Locked<[UInt64: SyncWaiter]>([:])
    /// One thread for every client's timers, sleeping until the next is due.
    private static let timers = SerialWorker()

    init(events: EventHub, token: UnsafeMutableRawPointer) {
        self.events = events
        self.token = UInt(bitPattern: token)
    }

    func awaitCompletion(token: UInt64, callId: UInt64, method: String) {
        pendingCalls.withLock { $0[token] = (callId, method) }
    }

    func complete(token: UInt64, response: CallResponse) {
        if let waiter = syncWaiters.withLock({ $0.removeValue(forKey: token) }) {
            waiter.answer(response)
            return
        }
        guard let call = pendingCalls.withLock({ $0.removeValue(forKey: token) }) else { return }
        events.emit(ClientBridge.callResult(callId: call.callId, method: call.method, response: response))
    }

    /// Registers a blocked synchronous call for `token`'s answer.
    func awaitSync(token: UInt64) -> SyncWaiter {
        let waiter = SyncWaiter()
        syncWaiters.withLock { $0[token] = waiter }
        return waiter
    }

    /// Blocks until the answer, the client's closing, or `limitMilliseconds`.
    func wait(_ waiter: SyncWaiter?, token: UInt64, limitMilliseconds: Int, method: String) -> CallResponse {
        if let response = waiter?.wait(limitMilliseconds: limitMilliseconds) { return response }
        syncWaiters.withLock { _ = $0.removeValue(forKey: token) }
        return .failure(WireError(.timeout, "\(method) got no answer within \(limitMilliseconds) ms",
                                  details: JSONObject([("method", .string(method))])))
    }

    /// Wakes every blocked synchronous call with CLOSED.
    func close() {
        let waiters = syncWaiters.withLock { waiters in
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.answer(.failure(WireError(.closed, "the client was freed while the call waited"))) }
    }

    /// Hands the built-in HTTP client's answer to the client, found by its handle token.
    func httpFinished(token transferToken: UInt64, outcome: HTTPOutcome) {
        HandleTable.lookup(UnsafeMutableRawPointer(bitPattern: token))?.httpFinished(token: transferToken, outcome: outcome)
    }

    /// The `call_result` event of an async call.
    static func callResult(callId: UInt64, method: String, response: CallResponse) -> Event {
        Event("call_result", retention: .answer) { writer in
            writer.key("call_id")
            writer.raw(Array(String(callId).utf8))
            writer.member("method", method)
            writer.member("status", Int(response.status.rawValue))
            writer.member("status_name", response.status.name)
            writer.key("envelope")
            writer.raw(response.envelope)
        }
    }

    func schedule(afterMilliseconds milliseconds: Int, token timerToken: UInt64) {
        let token = self.token
        ClientBridge.timers.async(afterMilliseconds: milliseconds) {
            HandleTable.lookup(UnsafeMutableRawPointer(bitPattern: token))?.fireTimer(timerToken)
        }
    }
}

/// The table of live clients. A `paywire_client_t *` is a token looked up here, never
/// dereferenced, so a freed or made-up pointer is answered with INVALID_HANDLE, not a crash.
/// A token names a slot and the slot's generation: a slot is reused after its client is freed,
/// under a new generation, so an old token finds nothing. Every call and poll looks its client
/// up, so the lookup is an index and a compare (a dictionary's hashing cost more than the call's
/// own work: issue 46).
enum HandleTable {
    private struct Slot {
        var generation: UInt = 0
        var handle: ClientHandle?
    }

    private struct Table {
        var slots: [Slot] = []
        var free: [Int] = []
    }

    private static let table = Locked(Table())
    /// Tokens are spaced and offset so that small integers and typical heap addresses miss.
    private static let tokenBase: UInt = 0x5057_0000_0000
    /// Slots per generation step: at most this many clients live at once.
    private static let slotBits: UInt = 20

    /// Claims a slot for a client about to be built: its token, which finds nothing until
    /// `fill` puts the handle in (nil when the table is full).
    static func reserve() -> UnsafeMutableRawPointer? {
        let token: UInt? = table.withLock { table in
            let index: Int
            if let reused = table.free.popLast() {
                index = reused
            } else {
                guard table.slots.count < 1 << slotBits else { return nil }
                index = table.slots.count
                table.slots.append(Slot())
            }
            table.slots[index].generation &+= 1
            table.slots[index].handle = nil
            let id = table.slots[index].generation << slotBits | UInt(index)
            return tokenBase &+ id &* 16
        }
        return token.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
    }

    /// Puts the built client's handle in the slot `reserve` claimed.
    static func fill(_ pointer: UnsafeMutableRawPointer, with handle: ClientHandle) {
        guard let (index, generation) = slot(of: pointer) else { return }
        table.withLock { table in
            guard index < table.slots.count, table.slots[index].generation == generation else { return }
            table.slots[index].handle = handle
        }
    }

    /// Gives back a slot `reserve` claimed for a client that was not built.
    static func release(_ pointer: UnsafeMutableRawPointer) {
        guard let (index, generation) = slot(of: pointer) else { return }
        table.withLock { table in
            guard index < table.slots.count, table.slots[index].generation == generation, table.slots[index].handle == nil else { return }
            table.free.append(index)
        }
    }

    @_optimize(speed) static func lookup(_ pointer: UnsafeMutableRawPointer?) -> ClientHandle? {
        guard let (index, generation) = slot(of: pointer) else { return nil }
        return table.withLock { table in
            guard index < table.slots.count, table.slots[index].generation == generation else { return nil }
            return table.slots[index].handle
        }
    }

    /// Removes the client; returns it so the caller can close it outside the table's lock.
    static func remove(_ pointer: UnsafeMutableRawPointer?) -> ClientHandle? {
        guard let (index, generation) = slot(of: pointer) else { return nil }
        return table.withLock { table in
            guard index < table.slots.count, table.slots[index].generation == generation,
                  let handle = table.slots[index].handle else { return nil }
            table.slots[index].handle = nil
            table.free.append(index)
            return handle
        }
    }

    @_optimize(speed) private static func slot(of pointer: UnsafeMutableRawPointer?) -> (index: Int, generation: UInt)? {
        guard let pointer else { return nil }
        let token = UInt(bitPattern: pointer)
        guard token > tokenBase, (token &- tokenBase) % 16 == 0 else { return nil }
        let id = (token &- tokenBase) / 16
        let generation = id >> slotBits
        guard generation > 0 else { return nil }
        return (Int(id & (1 << slotBits - 1)), generation)
    }
}

/// One blocked synchronous call, waiting for its answer.
final class SyncWaiter: @unchecked Sendable {
    private let monitor = Monitor()
    private var response: CallResponse?

    func answer(_ response: CallResponse) {
        monitor.locked {
            self.response = response
            monitor.broadcast()
        }
    }

    /// The answer, or nil when `limitMilliseconds` passed first.
    func wait(limitMilliseconds: Int) -> CallResponse? {
        let deadline = Monitor.deadline(afterMilliseconds: Int32(clamping: limitMilliseconds))
        return monitor.locked {
            while response == nil {
                if !monitor.wait(until: deadline) && response == nil { return nil }
            }
            return response
        }
    }
}
