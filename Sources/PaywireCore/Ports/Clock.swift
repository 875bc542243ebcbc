import PaywireModel
import PaywireWire

/// The wall clock, for subscription start and expiry, and a count of elapsed time the user
/// cannot move. A port so tests can fix "now"; the boundary hands in the system's clock.
public protocol Clock: AnyObject {
    /// Milliseconds since the Unix epoch.
    func nowMilliseconds() -> WideInt
    /// Milliseconds on a clock that only moves forward, sleep included (not the wall clock).
    func monotonicMilliseconds() -> WideInt
}

/// Runs core work later. The boundary implements it with a timer that calls
/// `Client.timerFired(_:)` under the client's lock; tests fire tokens by hand.
public protocol TimerScheduler: AnyObject, Sendable {
    /// Asks for `Client.timerFired(token)` after `milliseconds`.
    func schedule(afterMilliseconds milliseconds: WideInt, token: UInt64)
}
