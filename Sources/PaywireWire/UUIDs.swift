/// Identifiers in the lowercase 8-4-4-4-12 form every platform writes, from random bytes the
/// caller draws (the wire layer reads no generator of its own).
public enum UUIDs {
    /// A version-4 UUID of 16 random bytes (fewer are padded with zeros).
    public static func v4(random: [UInt8]) -> String {
        var bytes = sixteen(random)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return format(bytes)
    }

    /// A version-7 UUID (RFC 9562): 48 bits of Unix milliseconds, then random bits. Record ids
    /// sort by creation time, so a backend's index on them stays append-mostly.
    public static func v7(milliseconds: WideInt, random: [UInt8]) -> String {
        var bytes = sixteen(random)
        let time = UInt64(max(0, milliseconds)) & 0xFFFF_FFFF_FFFF
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: time >> (8 * (5 - index))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return format(bytes)
    }

    /// Exactly 16 bytes: the first 16 given, zeros after fewer.
    private static func sixteen(_ random: [UInt8]) -> [UInt8] {
        guard random.count != 16 else { return random }
        var bytes = Array(random.prefix(16))
        while bytes.count < 16 { bytes.append(0) }
        return bytes
    }

    private static func format(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            Hex.append(byte, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
