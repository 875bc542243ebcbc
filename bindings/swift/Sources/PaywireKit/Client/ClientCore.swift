import Foundation

/// A live libpaywire client: its handle, its async calls, and where its events go.
///
/// Every call leaves through `paywire_client_call_async`; one thread (``EventPump``) polls the
/// client's ordered event stream and settles each call's ticket from its `call_result`, so no
/// caller's thread ever waits inside the library. Closing settles every call still waiting with
/// `closed` (the library sends no `call_result` for them), and a refused call (`busy`) is settled
/// at once: every waiter is resumed exactly once.
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
            if let view = json["view"]?["id"]?.stringValue, let target = routes.target(for: view, event: event) {
                MainDelivery.async { target(event) }
            }
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
