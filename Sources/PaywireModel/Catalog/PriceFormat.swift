import PaywireWire

/// How a store writes amounts of one currency for its user, learned from one of its own price
/// strings: the text before and after the number, the digits (`0`-`9`, `٠`-`٩`, ...), the
/// decimal separator and the decimals shown, and the grouping separator with its group sizes.
///
/// The core carries no locale data: the store's string (`localized_price`) is the only
/// authority on how a price looks to its user, so an amount the core computes (a price per
/// month) is written the way the store writes the price it came from. What one string cannot
/// show (a grouping separator in `¥980`) is taken from another price in the same currency.
package struct PriceFormat: Equatable, Sendable {
    package var prefix: String
    package var suffix: String
    /// The digit zero of the store's digits; the others follow it in Unicode.
    package var zero: Unicode.Scalar
    /// Nil when the store writes this currency without decimals.
    package var decimalSeparator: String?
    package var fractionDigits: Int
    /// Nil when no price showed one (too few digits to tell).
    package var groupingSeparator: String?
    /// The group nearest the decimals, and the groups further left (`1,23,456` is 3 then 2).
    package var primaryGroup = 3
    package var secondaryGroup = 3

    /// The format `written` shows, when it is `amount` written with digits, separators and a
    /// text around them; nil when the digits in it do not read back as `amount` (another
    /// amount, or digits this reader does not know).
    package static func learn(amount: DecimalAmount, written: String) -> PriceFormat? {
        let scalars = Array(written.unicodeScalars)
        guard let first = scalars.firstIndex(where: { digitValue($0) != nil }),
              let last = scalars.lastIndex(where: { digitValue($0) != nil }) else { return nil }
        var runs: [[Int]] = [[]]
        var separators: [String] = []
        var zero: Unicode.Scalar?
        var inSeparator = false
        for scalar in scalars[first...last] {
            if let value = digitValue(scalar) {
                guard let scalarZero = Unicode.Scalar(scalar.value - UInt32(value)), zero == nil || zero == scalarZero else { return nil }
                zero = scalarZero
                if inSeparator {
                    runs.append([])
                    inSeparator = false
                }
                runs[runs.count - 1].append(value)
            } else {
                if !inSeparator {
                    separators.append("")
                    inSeparator = true
                }
                separators[separators.count - 1].unicodeScalars.append(scalar)
            }
        }
        guard let zero else { return nil }
        let base = PriceFormat(prefix: String(String.UnicodeScalarView(scalars[..<first])),
                               suffix: String(String.UnicodeScalarView(scalars[(last + 1)...])),
                               zero: zero, decimalSeparator: nil, fractionDigits: 0, groupingSeparator: nil)
        // The last separator is the decimal one, or there is none: the amount decides which.
        if runs.count > 1, let decimal = separators.last,
           let format = base.reading(runs: Array(runs.dropLast()), groupSeparators: Array(separators.dropLast()),
                                     fraction: runs[runs.count - 1], decimal: decimal, as: amount) {
            return format
        }
        return base.reading(runs: runs, groupSeparators: separators, fraction: [], decimal: nil, as: amount)
    }

    /// The format when the integer runs, grouped by `groupSeparators`, and the fraction read as
    /// `amount`; nil when they do not.
    private func reading(runs: [[Int]], groupSeparators: [String], fraction: [Int], decimal: String?,
                         as amount: DecimalAmount) -> PriceFormat? {
        guard Set(groupSeparators).count <= 1, decimal == nil || groupSeparators.first != decimal else { return nil }
        var units: WideInt = 0
        for digit in runs.joined() + fraction {
            guard let next = DecimalAmount.multiply([units, 10]) else { return nil }
            let (sum, overflow) = next.addingReportingOverflow(WideInt(digit))
            guard !overflow else { return nil }
            units = sum
        }
        guard fraction.count <= DecimalAmount.maxScale, DecimalAmount(units: units, scale: fraction.count) == amount else { return nil }
        var format = self
        format.decimalSeparator = decimal
        format.fractionDigits = fraction.count
        if let grouping = groupSeparators.first {
            format.groupingSeparator = grouping
            format.primaryGroup = runs[runs.count - 1].count
            format.secondaryGroup = runs.count > 2 ? runs[runs.count - 2].count : format.primaryGroup
            guard format.primaryGroup > 0, format.secondaryGroup > 0 else { return nil }
        }
        return format
    }

    /// This format, with what it could not tell taken from `other`, a format of a price in the
    /// same currency: the grouping of `¥9,800` for `¥980`, the decimals of `$4.99` for `$10`.
    package func completed(by other: PriceFormat) -> PriceFormat {
        var format = self
        if format.groupingSeparator == nil, let grouping = other.groupingSeparator, grouping != format.decimalSeparator {
            format.groupingSeparator = grouping
            format.primaryGroup = other.primaryGroup
            format.secondaryGroup = other.secondaryGroup
        }
        if format.decimalSeparator == nil, let decimal = other.decimalSeparator, decimal != format.groupingSeparator {
            format.decimalSeparator = decimal
            format.fractionDigits = other.fractionDigits
        }
        return format
    }

    /// `amount` rounded down to the decimals this format shows, written as the store writes
    /// prices; nil when the amount is too large to compute with.
    package func write(_ amount: DecimalAmount) -> String? {
        guard let (integer, fraction) = amount.digitTexts(decimals: fractionDigits) else { return nil }
        var text = prefix
        let digits = Array(integer.utf8)
        for (index, digit) in digits.enumerated() {
            text.unicodeScalars.append(scalar(digit))
            let remaining = digits.count - index - 1
            if let groupingSeparator, remaining > 0, isGroupBoundary(remaining) { text += groupingSeparator }
        }
        if let decimalSeparator, fractionDigits > 0 {
            text += decimalSeparator
            for digit in fraction.utf8 { text.unicodeScalars.append(scalar(digit)) }
        }
        return text + suffix
    }

    /// A whole number in the store's digits, with no separators (a percentage).
    package func writeWhole(_ value: Int) -> String {
        var text = ""
        for digit in String(value).utf8 { text.unicodeScalars.append(scalar(digit)) }
        return text
    }

    /// Whether a separator goes before the last `remaining` digits.
    private func isGroupBoundary(_ remaining: Int) -> Bool {
        if remaining == primaryGroup { return true }
        guard remaining > primaryGroup, secondaryGroup > 0 else { return false }
        return (remaining - primaryGroup) % secondaryGroup == 0
    }

    private func scalar(_ asciiDigit: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(zero.value + UInt32(asciiDigit - UInt8(ascii: "0"))) ?? zero
    }

    /// The value of a decimal digit of any script, or nil.
    private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        guard scalar.properties.numericType == .decimal else { return nil }
        return Character(scalar).wholeNumberValue
    }
}
