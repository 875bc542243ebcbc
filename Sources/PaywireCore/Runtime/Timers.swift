import PaywireModel
import PaywireWire

/// The client's timers. The part that sets one hands over the work to run when it fires (a
/// closure that holds the part); the runtime runs it without knowing whose it is. A token per
/// timer, so a firing that was cancelled (or fires twice) does nothing. The timers own the work
/// until it runs, is cancelled, or the client is torn down (`cancelAll`).
final class Timers {
    private var pending: [UInt64: () -> Void] = [:]
    private var nextToken: UInt64 = 1
    /// Nil in unit tests that fire nothing: work is then only ever cancelled.
    private let scheduler: TimerScheduler?

    init(scheduler: TimerScheduler?) { self.scheduler = scheduler }

    /// Runs `work` after `milliseconds`; the token cancels it.
    @discardableResult
    func schedule(after milliseconds: WideInt, _ work: @escaping () -> Void) -> UInt64 {
        let token = nextToken
        nextToken += 1
        pending[token] = work
        scheduler?.schedule(afterMilliseconds: milliseconds, token: token)
        return token
    }

    /// Forgets the work; its firing will do nothing.
    func cancel(_ token: UInt64) { pending.removeValue(forKey: token) }

    /// Runs the work of a firing, once; nothing when it was cancelled or already ran.
    func fire(_ token: UInt64) { pending.removeValue(forKey: token)?() }

    /// Drops the work of every timer without running it (the client is being freed): the
    /// parts the work holds are released, and a later firing does nothing.
    func cancelAll() { pending.removeAll() }

    /// How many timers are set and not yet fired or cancelled.
    var count: Int { pending.count }
}
