/// Standard base64 (RFC 4648 §4, with padding): how keys, nonces and signatures travel in
/// configs, headers and stored records; and base64url without padding (§5), how JWS segments
/// and the server's tokens are written. An encoding, not cryptography.
public enum Base64 {
    /// base64url (RFC 4648 §5) without padding: `-` and `_` for `+` and `/`, no `=`.
    public static func encodeURL(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        for character in encode(bytes).utf8 {
            switch character {
            case UInt8(ascii: "+"): out.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: out.append(character)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes unpadded base64url `text` stands for; nil unless it is canonical (no padding,
    /// no character of the standard alphabet's own, unused bits zero).
    public static func decodeURL(_ text: String) -> [UInt8]? {
        var standard: [UInt8] = []
        standard.reserveCapacity(text.utf8.count + 2)
        for character in text.utf8 {
            switch character {
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): return nil
            default: standard.append(character)
            }
        }
        // A group of one character holds less than a byte: no encoder writes it.
        guard standard.count % 4 != 1 else { return nil }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return decode(String(decoding: standard, as: UTF8.self))
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var word = UInt32(bytes[index]) << 16
            if count > 1 { word |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { word |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                out.append(position <= count ? alphabet[Int((word >> UInt32(18 - 6 * position)) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` stands for; nil unless it is canonical padded base64 (no spaces, no
    /// line breaks, unused bits zero), so one value has exactly one text.
    public static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(characters.count / 4 * 3)
        var index = 0
        while index < characters.count {
            let last = index + 4 == characters.count
            var word: UInt32 = 0
            var padding = 0
            for position in 0..<4 {
                let character = characters[index + position]
                if character == UInt8(ascii: "=") {
                    // Padding only at the end of the last group, and at most two.
                    guard last, position >= 2 else { return nil }
                    padding += 1
                    word <<= 6
                    continue
                }
                guard padding == 0, let value = value(of: character) else { return nil }
                word = (word << 6) | UInt32(value)
            }
            let bytes = [UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
            // The bits the padding stands in for must be zero.
            if padding == 2 && bytes[1] != 0 || padding == 1 && bytes[2] != 0 { return nil }
            out.append(contentsOf: bytes.prefix(3 - padding))
            index += 4
        }
        return out
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
