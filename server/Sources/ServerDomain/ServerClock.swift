/// The time as every part of the server reads it. The composition root hands the system's clock
/// to each part; a test hands a fixed one.
package protocol ServerClock: Sendable {
    /// Milliseconds since the Unix epoch.
    func nowMilliseconds() -> Int
}

extension ServerClock {
    /// Whole seconds since the Unix epoch (JWTs, Stripe's signatures).
    package func nowSeconds() -> Int { nowMilliseconds() / 1000 }
}
