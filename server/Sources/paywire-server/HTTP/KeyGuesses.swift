import ServerDomain
import Synchronization

/// Wrong operator keys from each client address, on every door that takes one: the dashboard's
/// sign-in form and every `authorization: Bearer` of an operator route alike, so guessing keys
/// costs the same whichever door is knocked on (`LoginThrottle`: `limit` in 15 minutes, 10
/// unless `--operator-key-guesses` says, then the address waits). Per replica, behind a lock.
final class KeyGuesses: Sendable {
    static let defaultLimit = 10
    private let throttle: Mutex<LoginThrottle>

    init(limit: Int = defaultLimit) { throttle = Mutex(LoginThrottle(limit: limit)) }

    func admits(_ address: String, now: Int) -> LoginThrottle.Decision {
        throttle.withLock { $0.admits(address, now: now) }
    }

    func failed(_ address: String, now: Int) {
        throttle.withLock { $0.failed(address, now: now) }
    }
}
