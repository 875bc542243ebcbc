/// Where a byte offset of a UTF-8 text is, as an editor shows it: line and column, both from 1,
/// the column counted in characters (Unicode scalars), so an error about a file names the place
/// a person opens.
public struct TextPosition: Equatable, Sendable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The position of `offset` in `bytes` (an offset past the end is the end).
    public init(of offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(max(0, offset)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0b1100_0000 != 0b1000_0000 {
                // Continuation bytes belong to the character their lead byte began.
                column += 1
            }
        }
        self.line = line
        self.column = column
    }
}

extension WireError {
    /// The same error placed in a file: its message starts `file:line:column: ` (the form
    /// compilers and editors read), and its details gain `file`, `line` and `column`. Without a
    /// file, only the line and column.
    public func located(file: String?, at position: TextPosition?) -> WireError {
        var details = self.details
        var prefix = ""
        if let file {
            details.set("file", .string(file))
            prefix = file
        }
        if let position {
            details.set("line", .number(JSONNumber(position.line)))
            details.set("column", .number(JSONNumber(position.column)))
            prefix += file == nil ? "line \(position.line), column \(position.column)" : ":\(position.line):\(position.column)"
        }
        return prefix.isEmpty ? self : WireError(code, "\(prefix): \(message)", details: details)
    }
}
