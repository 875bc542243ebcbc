import Foundation

/// A JSON number, kept as the text the library wrote (`9.99`, `1763769600000`), so nothing is
/// rounded through `Double` on its way. Read it as ``decimal``, ``int`` or ``double``.
///
/// Two numbers are equal when their values are (`1` equals `1.0`), as the conformance kit
/// compares them.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The number's JSON text.
    public let text: String

    /// A number from JSON text; nil when the text is not a JSON number.
    public init?(text: String) {
        guard JSONNumber.isValid(Array(text.utf8)) else { return nil }
        self.text = text
    }

    /// Text the parser has already checked.
    init(validatedText text: String) { self.text = text }

    public init<Integer: BinaryInteger>(_ value: Integer) { text = String(value) }

    public init(integerLiteral value: Int) { self.init(value) }

    /// The decimal's plain text (`9.99`, `-0.5`, `149`); never an exponent, never a binary float.
    public init(_ value: Decimal) { text = value.isFinite ? value.description : "0" }

    /// A Double through its shortest text that reads back the same (`0.1` is `0.1`).
    init(floatLiteral value: Double) {
        let text = value.isFinite ? "\(value)" : "0"
        self.text = JSONNumber.isValid(Array(text.utf8)) ? text : "0"
    }

    /// The exact value as a `Decimal` (nil only past Decimal's range).
    public var decimal: Decimal? { Decimal(string: text, locale: JSONNumber.posix) }

    /// The value as an `Int` when it is a whole number that fits.
    public var int: Int? {
        if let whole = Int(text) { return whole }
        // `1.0` or `1e3`: whole when rounding to no decimals changes nothing.
        guard var value = decimal, value >= Decimal(Int.min), value <= Decimal(Int.max) else { return nil }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        guard rounded == value else { return nil }
        return Int(rounded.description)
    }

    /// The nearest `Double` (prices should be read as ``decimal``).
    public var double: Double? { Double(text) }

    public var description: String { text }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.text == rhs.text { return true }
        guard let left = lhs.decimal, let right = rhs.decimal else { return false }
        return left == right
    }

    public func hash(into hasher: inout Hasher) {
        if let value = decimal { hasher.combine(value) } else { hasher.combine(text) }
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    /// RFC 8259's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    static func isValid(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }
}
