import Foundation

/// A live libpaywire client: its handle, its async calls, and where its events go.
///
/// Every wire method leaves through `paywire_client_call_async`; one thread (``EventPump``) polls
/// the client's ordered event stream and settles each call's ticket from its `call_result`, so no
/// caller's thread waits for the host inside the library. Closing settles every call still
/// waiting with `closed` (the library sends no `call_result` for them), and a refused call
/// (`busy`) is settled at once: every waiter is resumed exactly once. A controller's inputs are
/// the exception: they answer at once, so they go through `paywire_client_call` (``callNow``)
/// and the main thread then waits, with a deadline, for the pump to route what they emitted
/// (``waitUntilRouted(timeout:)``). The pump never waits for the main actor: view events go into
/// their controller's ``ViewInbox``, and only a non-blocking dispatch to the main queue follows.
final class ClientCore: Sendable {
    let native: NativeLibrary
    let handle: NativeHandle
    let subscribers = EventSubscribers()
    let routes = ViewRoutes()
    let store: (any PaywireStore)?
    private let calls = Locked(CallTable())
    private let profile = Locked(ProfileState())

    private struct CallTable {
        var tickets: [UInt64: CallTicket] = [:]
        var closed = false
    }

    struct ProfileState {
        var latest: Profile?
        var latestSeq = 0
        weak var delegate: (any PaywireDelegate)?
        /// The seq of the profile the delegate heard last: each profile is heard once, in order.
        var heardSeq = 0
    }

    init(native: NativeLibrary, handle: NativeHandle, store: (any PaywireStore)?) {
        self.native = native
        self.handle = handle
        self.store = store
    }

    /// Starts the event pump; called once, after init.
    func start() { EventPump.start(self) }

    // MARK: calls

    /// Queues `method` and returns its ticket at once. The call is in the library's queue (in
    /// order behind earlier ones) before this returns.
    func submit(_ method: String, _ params: JSONValue) -> CallTicket {
        let text = params.jsonText
        return calls.withLock { table in
            if table.closed { return CallTicket.settled(.failure(.closed)) }
            var callId: UInt64 = 0
            let status = method.withCString { method in
                text.withCString { params in native.clientCallAsync(handle.pointer, method, params, &callId) }
            }
            guard status == NativeStatus.ok, callId != 0 else {
                return CallTicket.settled(.failure(.refused(status: status, name: native.name(of: status))))
            }
            let ticket = CallTicket()
            table.tickets[callId] = ticket
            return ticket
        }
    }

    /// Calls `method` with `paywire_client_call` and returns its envelope's result: for what
    /// answers at once (a view's inputs and getters); the library refuses a method that would
    /// wait for the host here (`requires_async`) rather than block. The events the call emitted
    /// reach the pump as every event does; ``waitUntilRouted(timeout:)`` waits for them.
    func callNow(_ method: String, _ params: JSONValue) -> CallTicket.Outcome {
        if calls.withLock({ $0.closed }) { return .failure(.closed) }
        let text = params.jsonText
        var out: UnsafeMutablePointer<CChar>?
        let status = method.withCString { method in
            text.withCString { params in native.clientCall(handle.pointer, method, params, &out) }
        }
        let envelope = native.take(out).flatMap { try? JSONValue(parsingBytes: $0) }
        if status == NativeStatus.ok, case .object(let members)? = envelope, let success = members["success"] {
            PaywireWarnings.report(success)
            return .success(success)
        }
        if status == NativeStatus.closed || status == NativeStatus.invalidHandle { return .failure(.closed) }
        return .failure(.from(envelope: envelope, status: status, name: native.name(of: status)))
    }

    /// The cheap call whose `call_result` marks "everything before it has been routed".
    static let routingMarker = "get_log_level"

    /// Blocks until the pump has routed every event the library emitted before this call, for at
    /// most `timeout` seconds: it queues ``routingMarker`` and waits for its `call_result`, which
    /// the library sends after every earlier event (events are ordered). Returns at once when the
    /// marker cannot be queued (a closed client, `busy`): then what was routed so far is all
    /// the caller gets now, and the rest comes as later events do. Never called on the pump's
    /// thread (it would wait for itself).
    func waitUntilRouted(timeout: TimeInterval) {
        _ = submit(Self.routingMarker, .object([:])).wait(timeout: timeout)
    }

    /// Frees the library's client: no event comes after this returns, and every call still
    /// waiting is settled with `closed`. Idempotent.
    func close() {
        let waiting: [CallTicket]? = calls.withLock { table in
            guard !table.closed else { return nil }
            table.closed = true
            defer { table.tickets = [:] }
            return Array(table.tickets.values)
        }
        guard let waiting else { return }
        native.clientFree(handle.pointer)
        for ticket in waiting { ticket.settle(.failure(.closed)) }
        subscribers.finish()
    }

    /// The pump stopped (the client was freed, or polling failed for good): nothing more will
    /// settle a waiting call, so each is settled with `error`.
    func pumpStopped(_ error: PaywireError) {
        let waiting = calls.withLock { table in
            table.closed = true
            defer { table.tickets = [:] }
            return Array(table.tickets.values)
        }
        for ticket in waiting { ticket.settle(.failure(error)) }
        subscribers.finish()
    }

    // MARK: events (on the pump's thread, one at a time, in seq order)

    func dispatch(_ bytes: [UInt8]) {
        guard let json = try? JSONValue(parsingBytes: bytes) else {
            // The library writes JSON; should it ever not, the text still reaches client.events.
            subscribers.yield(.unknown(name: "", json: .string(String(decoding: bytes, as: UTF8.self))))
            return
        }
        if json["event"] == "call_result", let id = json["call_id"]?.numberValue?.int,
           let ticket = calls.withLock({ $0.tickets.removeValue(forKey: UInt64(id)) })
        {
            ticket.settle(CallResult.outcome(of: json))
            return
        }
        let event = PaywireEvent.reading(json)
        switch event {
        case .didLoadLatestProfile(let loaded):
            profile.withLock { state in
                state.latest = loaded.profile
                state.latestSeq = loaded.seq
            }
            MainDelivery.async { [self] in deliverProfile(loaded.profile, seq: loaded.seq) }
        case .hostRequest(let request):
            HostRequests.route(request, event: event, core: self)
        default:
            if let view = json["view"]?["id"]?.stringValue { routes.route(event, view: view) }
        }
        subscribers.yield(event)
    }

    // MARK: profile

    var latestProfile: Profile? { profile.withLock { $0.latest } }

    var delegate: (any PaywireDelegate)? {
        get { profile.withLock { $0.delegate } }
        set {
            profile.withLock { state in
                state.delegate = newValue
                state.heardSeq = 0
            }
            MainDelivery.async { [self] in deliverProfile(nil, seq: nil) }
        }
    }

    /// Gives the delegate the latest profile the pump has read, unless it heard it already: a
    /// controller's action calls this before it returns, so the profile the action brought is
    /// heard by then too (the delivery queued for it then finds nothing new).
    @MainActor func deliverLatestProfile() { deliverProfile(nil, seq: nil) }

    /// Gives the delegate `loaded` (seq `seq`), or the latest profile when the delegate was just
    /// set, unless it heard that one or a later one already.
    @MainActor private func deliverProfile(_ loaded: Profile?, seq: Int?) {
        let (delegate, heard): ((any PaywireDelegate)?, Profile?) = profile.withLock { state in
            let candidate = loaded ?? state.latest
            let candidateSeq = seq ?? state.latestSeq
            guard let candidate, candidateSeq > state.heardSeq else { return (nil, nil) }
            state.heardSeq = candidateSeq
            return (state.delegate, candidate)
        }
        if let delegate, let heard { delegate.didLoadLatestProfile(heard) }
    }
}

/// The library's client pointer: a token the library never dereferences and checks on every
/// call (a freed one is answered INVALID_HANDLE), so it may be passed between threads.
struct NativeHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Reads a `call_result` event: its envelope's success, or its error.
enum CallResult {
    static func outcome(of event: JSONValue) -> CallTicket.Outcome {
        let envelope = event["envelope"]
        let status = Int32(clamping: event["status"]?.numberValue?.int ?? Int(NativeStatus.failed))
        if status == NativeStatus.ok, case .object(let members)? = envelope, let success = members["success"] {
            PaywireWarnings.report(success)
            return .success(success)
        }
        return .failure(.from(envelope: envelope, status: status, name: event["status_name"]?.stringValue ?? "UNKNOWN"))
    }
}

extension PaywireEvent {
    /// The typed event; an event whose members do not have its schema's shape is kept whole as
    /// `unknown` rather than lost.
    static func reading(_ json: JSONValue) -> PaywireEvent {
        (try? PaywireEvent(json: json)) ?? .unknown(name: json["event"]?.stringValue ?? "", json: json)
    }
}
