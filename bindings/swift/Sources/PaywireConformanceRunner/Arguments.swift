import Foundation
import PaywireKit

/// The string arguments of an op (tests/conformance/README.md): `<key>_text` verbatim, `<key>_hex`
/// raw bytes (maybe invalid UTF-8), `<key>_repeat` {prefix, text, times, suffix}, or `<key>` (a
/// string as is, anything else as JSON); absent or null is a NULL pointer.
enum Arguments {
    static func bytes(_ op: [String: JSONValue], _ key: String) -> [UInt8]? {
        if case .string(let text)? = op[key + "_text"] { return Array(text.utf8) }
        if case .string(let hex)? = op[key + "_hex"] { return decodeHex(hex) }
        if case .object(let repeated)? = op[key + "_repeat"] {
            let times = repeated["times"]?.numberValue?.int ?? 0
            var text = repeated["prefix"]?.stringValue ?? ""
            text += String(repeating: repeated["text"]?.stringValue ?? "", count: max(0, times))
            text += repeated["suffix"]?.stringValue ?? ""
            return Array(text.utf8)
        }
        switch op[key] {
        case nil, .null?: return nil
        case .string(let text)?: return Array(text.utf8)
        case let value?: return Array(value.jsonText.utf8)
        }
    }

    /// Runs `body` with the bytes as a NUL-terminated C string, or NULL.
    static func withCString<Result>(_ bytes: [UInt8]?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        guard let bytes else { return body(nil) }
        return (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress) }
        }
    }

    static func flag(_ op: [String: JSONValue], _ key: String) -> Bool { op[key]?.boolValue ?? false }

    static func integer(_ op: [String: JSONValue], _ key: String) -> Int { op[key]?.numberValue?.int ?? 0 }

    private static func decodeHex(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var pending: UInt8?
        for character in hex {
            guard let digit = character.hexDigitValue else { continue }
            if let high = pending {
                out.append(high << 4 | UInt8(digit))
                pending = nil
            } else {
                pending = UInt8(digit)
            }
        }
        return out
    }
}
