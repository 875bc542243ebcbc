import Foundation
import ServerDomain

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
