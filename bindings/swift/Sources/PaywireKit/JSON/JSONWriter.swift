/// Writes ``JSONValue`` as compact JSON: members sorted by key (the same text in every process,
/// unlike JSONEncoder's order), numbers as their text, strings escaped as RFC 8259 requires.
enum JSONWriter {
    static func text(of value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): out.append(contentsOf: number.text.utf8)
        case .string(let text): string(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (position, key) in members.keys.sorted().enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                string(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if let member = members[key] { write(member, into: &out) }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0x00..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
