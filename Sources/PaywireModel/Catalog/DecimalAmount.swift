import PaywireWire

/// A non-negative amount of money read from its decimal text: `units / 10^scale`, exact.
///
/// Money never passes through a binary float: a price is read from the store's text, divided
/// and rounded in integers, and written back as text. Every operation checks for overflow and
/// answers nil rather than a wrong amount (amounts past about 10^12 with many decimals).
package struct DecimalAmount: Equatable, Sendable {
    /// The amount in units of `10^-scale` (64 bits on every target: 10^12 minor units is a
    /// price a currency with many digits reaches).
    package let units: WideInt
    /// Decimals, 0...18; trailing zeros are dropped (`9.90` is 99 at scale 1).
    package let scale: Int

    package static let maxScale = 18

    package init(units: WideInt, scale: Int) {
        var (units, scale) = (units, scale)
        while scale > 0 && units % 10 == 0 {
            units /= 10
            scale -= 1
        }
        self.units = units
        self.scale = scale
    }

    /// Reads a JSON number's text (`9.99`, `980`, `1.5e2`); nil for a negative amount, a text
    /// that is not a number, or one too large or too precise to hold exactly.
    package init?(_ text: String) {
        var units: WideInt = 0
        var fractionDigits = 0
        var exponent = 0
        var exponentSign = 1
        var part = 0  // 0 integer, 1 fraction, 2 exponent
        var sawDigit = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = WideInt(byte - UInt8(ascii: "0"))
                if part == 2 {
                    exponent = exponent * 10 + Int(digit)
                    guard exponent <= 64 else { return nil }
                } else {
                    guard let next = DecimalAmount.checked(units, times: 10, plus: digit) else { return nil }
                    units = next
                    if part == 1 { fractionDigits += 1 }
                    sawDigit = true
                }
            case UInt8(ascii: ".") where part == 0: part = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"): guard part < 2, sawDigit else { return nil }; part = 2
            case UInt8(ascii: "+") where part == 2: break
            case UInt8(ascii: "-") where part == 2: exponentSign = -1
            default: return nil
            }
        }
        guard sawDigit else { return nil }
        var scale = fractionDigits - exponentSign * exponent
        while scale < 0 {
            guard let next = DecimalAmount.checked(units, times: 10, plus: 0) else { return nil }
            units = next
            scale += 1
        }
        let amount = DecimalAmount(units: units, scale: scale)
        guard amount.scale <= DecimalAmount.maxScale else { return nil }
        self = amount
    }

    /// The amount as a number written by the store (its text).
    package init?(_ number: JSONNumber) { self.init(number.text) }

    /// The amount in units of `10^-digits`, rounded down (toward zero); nil on overflow.
    package func units(atScale digits: Int) -> WideInt? {
        if digits >= scale {
            guard let factor = DecimalAmount.power(digits - scale) else { return nil }
            return DecimalAmount.multiply([units, factor])
        }
        guard let divisor = DecimalAmount.power(scale - digits) else { return nil }
        return units / divisor
    }

    /// The digits of the integer part and of `digits` decimals (rounded down), as ASCII text.
    package func digitTexts(decimals digits: Int) -> (integer: String, fraction: String)? {
        guard let scaled = units(atScale: digits), let divisor = DecimalAmount.power(digits) else { return nil }
        guard digits > 0 else { return (String(scaled), "") }
        let fraction = String(scaled % divisor)
        return (String(scaled / divisor), String(repeating: "0", count: max(0, digits - fraction.count)) + fraction)
    }

    // MARK: - Checked integer arithmetic

    /// 10^n, or nil past WideInt's range.
    package static func power(_ exponent: Int) -> WideInt? {
        guard exponent >= 0 else { return nil }
        var result: WideInt = 1
        for _ in 0..<exponent {
            guard let next = checked(result, times: 10, plus: 0) else { return nil }
            result = next
        }
        return result
    }

    /// The product of `factors`, or nil on overflow.
    package static func multiply(_ factors: [WideInt]) -> WideInt? {
        var result: WideInt = 1
        for factor in factors {
            let (product, overflow) = result.multipliedReportingOverflow(by: factor)
            guard !overflow else { return nil }
            result = product
        }
        return result
    }

    private static func checked(_ value: WideInt, times factor: WideInt, plus addend: WideInt) -> WideInt? {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        guard !overflow else { return nil }
        let (sum, overflowed) = product.addingReportingOverflow(addend)
        return overflowed ? nil : sum
    }
}
