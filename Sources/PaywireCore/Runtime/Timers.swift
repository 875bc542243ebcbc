/// Work waiting for a timer, named by the part that owns it: a firing is routed to that part
/// and to nothing else.
enum TimerWork: Sendable {
    /// `HostRequestBroker`: a host request's deadline.
    case hostDeadline(requestId: String)
    /// `StoreGateway`: a store that answers after a delay (the test store's scripted delays).
    case storeDelay(StoreTicket, StoreOperation)
    /// `PaywallViews`: a view's own timer.
    case paywallView(viewId: String, PaywallViewTimer)
    /// `PlacementLoader`: a waiter's `load_timeout` budget.
    case placementBudget(waiter: UInt64, key: PlacementKey)
    /// `ProfileSync`: a `get_profile` call's budget.
    case profileBudget(callToken: UInt64)
    /// `Outbox`: delivery timers and `flush_analytics` deadlines.
    case outbox(Outbox.Timer)
    /// `ProfileStore`: the next time a grant starts or ends.
    case accessChange
    /// `Purchases`: a transaction's store deadline (acknowledge it before the store refunds it).
    case acknowledgeDeadline(transactionId: String)
}

/// The client's timers: a token per scheduled work, so a firing that was cancelled (or fires
/// twice) does nothing. The boundary's scheduler calls `Client.timerFired(_:)` with the token.
final class Timers {
    private var pending: [UInt64: TimerWork] = [:]
    private var nextToken: UInt64 = 1
    /// Nil in unit tests that fire nothing: work is then only ever cancelled.
    private let scheduler: TimerScheduler?

    init(scheduler: TimerScheduler?) { self.scheduler = scheduler }

    /// Asks for `work` after `milliseconds`; the token cancels it.
    @discardableResult
    func schedule(_ work: TimerWork, after milliseconds: Int) -> UInt64 {
        let token = nextToken
        nextToken += 1
        pending[token] = work
        scheduler?.schedule(afterMilliseconds: milliseconds, token: token)
        return token
    }

    /// Forgets the work; its firing will do nothing.
    func cancel(_ token: UInt64) { pending.removeValue(forKey: token) }

    /// The work of a firing, once; nil when it was cancelled or already ran.
    func take(_ token: UInt64) -> TimerWork? { pending.removeValue(forKey: token) }
}
