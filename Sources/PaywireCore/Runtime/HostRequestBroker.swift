import PaywireModel
import PaywireWire

/// What the core can ask the host, as `host_request` events with a `kind`.
enum HostRequestKind: String, WireEnum, Sendable {
    case storeFetchProducts = "store.fetch_products"
    case storePurchase = "store.purchase"
    case storeRestore = "store.restore"
    case storeFinishTransaction = "store.finish_transaction"
    case storeRefreshEligibility = "store.refresh_eligibility"
    case storeCurrentEntitlements = "store.current_entitlements"
    case observerPurchase = "observer.purchase"
    case productsRetry = "products.retry"
    case promoCodeValidate = "promo_code.validate"
    case webPaymentOpen = "web_payment.open"
    case http
}

/// How a host request ended.
enum HostOutcome: Sendable {
    case answered(HostAnswer)
    /// The deadline passed; the error says which request and how long the core waited.
    case timedOut(WireError)

    /// The error a flow reports: the timeout, or the host's own error (its `code` when it names
    /// a known one, else `code`); nil when the host answered with a result.
    func error(_ code: ErrorCode, _ fallback: String) -> WireError? {
        switch self {
        case .timedOut(let error): return error
        case .answered(let answer): return answer.error(code: code, fallback: fallback)
        }
    }

    /// The host's answer when it answered with a result rather than an error.
    var answer: HostAnswer? {
        if case .answered(let answer) = self, answer.errorFields == nil { return answer }
        return nil
    }
}

/// What the part that asked does with the host's answer (or the deadline's timeout).
typealias HostReply = (HostOutcome) -> Void

/// What a host request is about, written into its event beside the kind (a paywall view names
/// itself), so the host can route it: one member, its value already encoded by the part that
/// asks. The broker knows no more of it than this. A value, not a protocol: Embedded Swift has
/// no existentials of protocols that are not class-bound.
struct HostRequestOrigin: Sendable {
    let key: String
    let value: [UInt8]

    func write(to writer: inout JSONWriter) {
        writer.key(key)
        writer.raw(value)
    }
}

/// The open host requests of one client: each is emitted as a `host_request` event with a
/// deadline and remembered with the reply of the part that asked. Every request ends exactly
/// once: answered, or failed by its deadline. An id that timed out is remembered (a bounded
/// number of them) so a late answer is told apart from a wrong id.
final class HostRequestBroker {
    private struct Pending {
        let kind: HostRequestKind
        let reply: HostReply
        let deadlineToken: UInt64
        /// Set when the request was never emitted because the host had fallen behind.
        var refusal: WireError?
    }

    /// How a `host_respond` was taken.
    enum Delivery {
        /// In time: the part that asked has it.
        case delivered
        /// After the deadline: ignored (already failed with `timeout`).
        case late
    }

    private static let expiredMemory = 1024
    /// How long the host has to answer, in ms (`host_request_timeout_ms`).
    let timeout: WideInt
    private let sink: EventSink
    private let backpressure: Backpressure
    private let timers: Timers
    private let log: Log
    private var pending: [String: Pending] = [:]
    private var expired: [String] = []
    private var expiredSet = Set<String>()
    private var nextId = 1

    init(timeout: WideInt, sink: EventSink, backpressure: Backpressure, timers: Timers, log: Log) {
        self.timeout = timeout
        self.sink = sink
        self.backpressure = backpressure
        self.timers = timers
        self.log = log
    }

    /// Emits a `host_request` with a deadline; `reply` gets the answer or the timeout, once.
    /// Returns its id. While the host has fallen behind on its events the request is not
    /// emitted: `reply` gets `busy` at once (after the asking part's step, as a deadline would).
    @discardableResult
    func ask(_ kind: HostRequestKind, origin: HostRequestOrigin?, payload: (inout JSONWriter) -> Void,
             reply: @escaping HostReply) -> String {
        let id = "req-\(nextId)"
        nextId += 1
        if let refusal = backpressure.refusal(of: "host request \(kind.rawValue)") {
            let token = timers.schedule(after: 0) { [self] in self.deadlinePassed(id) }
            pending[id] = Pending(kind: kind, reply: reply, deadlineToken: token, refusal: refusal)
            return id
        }
        let deadline = timers.schedule(after: timeout) { [self] in self.deadlinePassed(id) }
        pending[id] = Pending(kind: kind, reply: reply, deadlineToken: deadline)
        let timeout = self.timeout
        sink.emit(Event("host_request") { writer in
            writer.member("request_id", id)
            writer.member("kind", kind.rawValue)
            writer.member("timeout_ms", timeout)
            origin?.write(to: &writer)
            writer.key("payload")
            writer.object(payload)
        })
        return id
    }

    /// Takes the host's answer to `requestId`. Throws `not_found` for an id that was never
    /// asked (or already answered).
    func answer(_ requestId: String, _ answer: HostAnswer) throws(WireError) -> Delivery {
        guard let request = pending.removeValue(forKey: requestId) else {
            if expiredSet.contains(requestId) {
                log(.warn, "late answer to host request '\(requestId)' ignored: its deadline had passed",
                    details: [("request_id", .string(requestId))])
                return .late
            }
            throw WireError(.notFound, "no host request '\(requestId)' is waiting for an answer",
                            details: JSONObject([("request_id", .string(requestId))]))
        }
        timers.cancel(request.deadlineToken)
        request.reply(.answered(answer))
        return .delivered
    }

    /// Drops every open request without replying (the client is being freed): the replies,
    /// and the parts they hold, are released; a later answer finds no request.
    func cancelAll() { pending.removeAll() }

    /// How many requests wait for the host's answer.
    var openCount: Int { pending.count }

    /// The deadline of `requestId` passed: it fails with `timeout` (or `busy`, when it was
    /// refused), and its id is remembered.
    private func deadlinePassed(_ requestId: String) {
        guard let request = pending.removeValue(forKey: requestId) else { return }
        if let refusal = request.refusal {
            log(.warn, refusal.message, details: [("request_id", .string(requestId))])
            request.reply(.timedOut(refusal))
            return
        }
        expired.append(requestId)
        expiredSet.insert(requestId)
        if expired.count > HostRequestBroker.expiredMemory {
            expiredSet.remove(expired.removeFirst())
        }
        log(.warn, "host request '\(requestId)' (\(request.kind.rawValue)) got no answer in time",
            details: [("request_id", .string(requestId))])
        let error = WireError(.timeout, "the host did not answer \(request.kind.rawValue) within \(timeout) ms",
                              details: JSONObject([("request_id", .string(requestId))]))
        request.reply(.timedOut(error))
    }
}
