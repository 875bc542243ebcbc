/// Identifiers in the lowercase 8-4-4-4-12 form every platform writes.
public enum UUIDs {
    /// A random version-4 UUID (profile ids, install ids, session ids).
    public static func v4() -> String {
        var bytes = randomBytes()
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return format(bytes)
    }

    /// A version-7 UUID (RFC 9562): 48 bits of Unix milliseconds, then random bits. Record ids
    /// sort by creation time, so a backend's index on them stays append-mostly.
    public static func v7(milliseconds: Int) -> String {
        var bytes = randomBytes()
        let time = UInt64(max(0, milliseconds)) & 0xFFFF_FFFF_FFFF
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: time >> (8 * (5 - index))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return format(bytes)
    }

    /// 16 random bytes, two draws of the system generator rather than sixteen.
    private static func randomBytes() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next(), low = generator.next()
        return (0..<16).map { index in UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (8 * UInt64(index % 8))) }
    }

    private static func format(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            MD5.appendHex(byte, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
