import PaywireModel
import PaywireWire

/// The calls of one client: how the call in progress was made (what it may wait for depends on
/// it), the tokens of calls answered later, and where their answers go.
final class Calls {
    // The client's lock gives these their exclusivity (one call at a time): the runtime's check
    // of each access is left out, as it cost more than the work on the call path (issue 46).
    /// How the call in progress was made; `.sync` between calls.
    @exclusivity(unchecked) private(set) var mode: CallMode = .sync
    private var nextToken: UInt64 = 1
    /// Nil where nothing may be pending (unit tests): every wait is then refused.
    private let completions: CallCompletionSink?
    /// Tokens promised by the call in progress, and answers that came for them before it
    /// returned: such a call answers at once instead (its waiter does not exist yet).
    @exclusivity(unchecked) private var promisedNow = Set<UInt64>()
    @exclusivity(unchecked) private var earlyAnswers: [UInt64: CallResponse] = [:]

    init(completions: CallCompletionSink?) { self.completions = completions }

    /// Runs one call in `mode`.
    @_optimize(speed) func run(_ mode: CallMode, _ body: () -> CallOutcome) -> CallOutcome {
        self.mode = mode
        defer {
            self.mode = .sync
            // Most calls promise nothing: an empty set is left as it is.
            if !promisedNow.isEmpty { promisedNow.removeAll() }
            if !earlyAnswers.isEmpty { earlyAnswers.removeAll() }
        }
        let outcome = body()
        if case .pending(let token, _) = outcome, let answer = earlyAnswers[token] { return .done(answer) }
        return outcome
    }

    /// How long past its own budget a synchronous caller waits, so the answer the budget itself
    /// produces (a timeout, a fallback) always reaches it first.
    static let answerSlackMilliseconds: WideInt = 2000

    /// Promises an answer later. A wait on the host is refused in a synchronous call, where a
    /// single-threaded host could never answer; a wait on the core's own work (the built-in
    /// HTTP client, a time budget) is not, and `budget` plus the slack bounds it.
    func promise(_ method: String, waitsOnHost: Bool, budget: WideInt) throws(WireError) -> (token: UInt64, outcome: CallOutcome) {
        guard completions != nil, mode == .async || !waitsOnHost else {
            throw WireError(.requiresAsync, "\(method) waits for the host here: call it with paywire_client_call_async",
                            details: JSONObject([("method", .string(method))]))
        }
        defer { nextToken += 1 }
        promisedNow.insert(nextToken)
        return (nextToken, .pending(token: nextToken, waitLimitMilliseconds: budget + Calls.answerSlackMilliseconds))
    }

    /// Delivers the answer of a promised call (at once, when the call is still running).
    func complete(_ token: UInt64, _ response: CallResponse) {
        if promisedNow.contains(token) {
            earlyAnswers[token] = response
            return
        }
        completions?.complete(token: token, response: response)
    }
}

/// What a call produced: its envelope now, or a promise of one.
public enum CallOutcome: Sendable {
    case done(CallResponse)
    /// The answer comes later through `CallCompletionSink.complete(token:response:)`, within
    /// `waitLimitMilliseconds` (a synchronous caller stops waiting then).
    case pending(token: UInt64, waitLimitMilliseconds: WideInt)
}

/// How a call was made: `paywire_client_call` (the caller blocks) or `paywire_client_call_async`.
public enum CallMode: Sendable {
    case sync
    case async
}

/// Where the answers of pending calls go. Called while the client's lock is held.
public protocol CallCompletionSink: AnyObject, Sendable {
    func complete(token: UInt64, response: CallResponse)
}
