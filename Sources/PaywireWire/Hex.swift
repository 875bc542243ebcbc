/// Lowercase hexadecimal, two digits a byte: how digests, key ids, tokens' digests and the test
/// store's signatures are written, on the device and on the server alike. An encoding, not
/// cryptography.
public enum Hex {
    /// `bytes` as lowercase hex, two digits each.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes { append(byte, to: &text) }
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `byte` as two lowercase hex digits (ASCII): ids are made per record, and a
    /// String per digit cost more than the record's own insert (issue 46).
    @inline(__always) public static func append(_ byte: UInt8, to text: inout [UInt8]) {
        text.append(digit(byte >> 4))
        text.append(digit(byte & 0x0F))
    }

    /// The bytes `text` stands for, nil unless it is an even number of hex digits (either case:
    /// operators paste `sha256sum`'s and other tools' output). `count`, when given, is the
    /// number of bytes required.
    public static func decode(_ text: some StringProtocol, count: Int? = nil) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0, count.map({ $0 * 2 == digits.count }) ?? true else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(ofDigit: digits[index]), let low = value(ofDigit: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    @inline(__always) private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// The value of one hex digit (ASCII, either case); nil for any other byte.
    public static func value(ofDigit digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
