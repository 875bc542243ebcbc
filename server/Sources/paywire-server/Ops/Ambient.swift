import Foundation
import ServerDomain

/// The time as every part of the server reads it. The composition root hands the system's clock
/// to each part; a test hands a fixed one.
protocol ServerClock: Sendable {
    /// Milliseconds since the Unix epoch.
    func nowMilliseconds() -> Int
}

extension ServerClock {
    /// Whole seconds since the Unix epoch (JWTs, Stripe's signatures).
    func nowSeconds() -> Int { nowMilliseconds() / 1000 }
}

/// The system's real-time clock, moved by `--clock-offset-ms` (0 but in a test on another date).
struct SystemClock: ServerClock {
    var offsetMillis = 0

    func nowMilliseconds() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) + offsetMillis }
}

/// The operating system's cryptographically secure generator.
struct SystemRandom: RandomSource {
    func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
