import PaywireWire

/// Where the server's random bytes come from: tokens, nonces, jitter. The system's generator in
/// production; a test may script one.
package protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

extension RandomSource {
    /// A random version-4 UUID in lowercase (offer nonces), written as the device writes its ids.
    package func uuid() -> String { UUIDs.v4(random: bytes(16)) }

    /// A whole number in `range`, for jitter.
    package func int(in range: ClosedRange<Int>) -> Int {
        let word = bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return range.lowerBound + Int(word % UInt64(range.count))
    }
}
