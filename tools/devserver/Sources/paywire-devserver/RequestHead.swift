import FlyingFox

/// A request line and its headers, checked byte by byte before anything reads them as text:
/// HTTP heads are ASCII (RFC 9110 §5.5 lets a recipient refuse other bytes), so any byte
/// outside printable ASCII and tab is refused with `400`, naming where it was.
struct RequestHead {
    let method: String
    let version: String
    let path: String
    let query: String
    let headers: HTTPHeaders
    let contentLength: Int
    let keepAlive: Bool
    let expectsContinue: Bool

    struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    static func parse(_ bytes: [UInt8]) -> Result<RequestHead, Problem> {
        for (offset, byte) in bytes.enumerated() where !(byte == 9 || byte == 10 || byte == 13 || (32...126).contains(byte)) {
            return .failure(Problem("the request head has a byte that is not ASCII (0x\(String(byte, radix: 16))) at offset \(offset): header names and values must be ASCII"))
        }
        // Every byte is ASCII, so the text is exact.
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")[...]
        guard let requestLine = lines.popFirst() else { return .failure(Problem("no request line")) }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenCharacter),
              parts[1].hasPrefix("/"), parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            return .failure(Problem("the request line must be 'METHOD /path HTTP/1.1'"))
        }
        var headers = HTTPHeaders()
        var contentLengths = Set<String>()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  line[..<colon].allSatisfy(isTokenCharacter) else {
                return .failure(Problem("malformed header line '\(line.prefix(64))'"))
            }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
            if name.lowercased() == "content-length" { contentLengths.insert(value) }
            headers.addValue(value, for: HTTPHeader(name))
        }
        if headers[.transferEncoding] != nil {
            return .failure(Problem("Transfer-Encoding bodies are not taken here: send Content-Length"))
        }
        guard contentLengths.count <= 1 else { return .failure(Problem("conflicting Content-Length headers")) }
        var length = 0
        if let text = contentLengths.first {
            guard !text.isEmpty, text.count <= 15, text.allSatisfy({ $0.isASCII && $0.isNumber }), let parsed = Int(text) else {
                return .failure(Problem("Content-Length must be a decimal number of bytes"))
            }
            length = parsed
        }
        let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let connection = headers[.connection]?.lowercased() ?? ""
        let keepAlive = parts[2] == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        return .success(RequestHead(
            method: String(parts[0]), version: String(parts[2]), path: String(target[0]),
            query: target.count > 1 ? String(target[1]) : "", headers: headers, contentLength: length,
            keepAlive: keepAlive, expectsContinue: headers[HTTPHeader("Expect")]?.lowercased() == "100-continue"))
    }

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (48...57).contains(ascii) || (65...90).contains(ascii) || (97...122).contains(ascii)
            || "!#$%&'*+-.^_`|~".utf8.contains(ascii)
    }
}
