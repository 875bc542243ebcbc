import PaywireModel
import PaywireWire

/// Where the core's random bits come from: identifiers (profiles, installs, sessions, records)
/// and the delivery's jitter. The boundary hands in the system's generator; tests may script one.
public protocol RandomSource: AnyObject {
    /// Sixty-four random bits.
    func next() -> UInt64
}

extension RandomSource {
    /// `count` random bytes, eight from each draw.
    public func bytes(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var word: UInt64 = 0
        for index in 0..<max(0, count) {
            if index % 8 == 0 { word = next() }
            bytes.append(UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8))))
        }
        return bytes
    }

    /// A number in [0, 1).
    func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// A random version-4 UUID (profile ids, install ids, session ids).
    public func uuidV4() -> String { UUIDs.v4(random: bytes(16)) }

    /// A version-7 UUID: `milliseconds`, then random bits (record ids).
    func uuidV7(milliseconds: WideInt) -> String { UUIDs.v7(milliseconds: milliseconds, random: bytes(16)) }
}
