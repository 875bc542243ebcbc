import PaywireModel
import PaywireWire

/// Where the core's random bits come from: identifiers (profiles, installs, sessions, records)
/// and the delivery's jitter. The boundary hands in the system's generator; tests may script one.
public protocol RandomSource: AnyObject {
    /// Sixty-four random bits.
    func next() -> UInt64
}

extension RandomSource {
    /// `count` random bytes.
    public func bytes(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            var word = next()
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return Array(bytes.prefix(count))
    }

    /// A number in [0, 1).
    func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// A random version-4 UUID (profile ids, install ids, session ids).
    public func uuidV4() -> String { UUIDs.v4(random: bytes(16)) }

    /// A version-7 UUID: `milliseconds`, then random bits (record ids).
    func uuidV7(milliseconds: Int) -> String { UUIDs.v7(milliseconds: milliseconds, random: bytes(16)) }
}
