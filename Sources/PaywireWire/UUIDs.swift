/// Identifiers in the lowercase 8-4-4-4-12 form every platform writes, from random bytes the
/// caller draws (the wire layer reads no generator of its own).
public enum UUIDs {
    /// A version-4 UUID of 16 random bytes (fewer are padded with zeros).
    public static func v4(random: [UInt8]) -> String {
        var bytes = Array((random + [UInt8](repeating: 0, count: 16)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return format(bytes)
    }

    /// A version-7 UUID (RFC 9562): 48 bits of Unix milliseconds, then random bits. Record ids
    /// sort by creation time, so a backend's index on them stays append-mostly.
    public static func v7(milliseconds: Int, random: [UInt8]) -> String {
        var bytes = Array((random + [UInt8](repeating: 0, count: 16)).prefix(16))
        let time = UInt64(max(0, milliseconds)) & 0xFFFF_FFFF_FFFF
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: time >> (8 * (5 - index))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return format(bytes)
    }

    private static func format(_ bytes: [UInt8]) -> String {
        var result = ""
        for (index, character) in MD5.hex(bytes).enumerated() {
            if [8, 12, 16, 20].contains(index) { result.append("-") }
            result.append(character)
        }
        return result
    }
}
