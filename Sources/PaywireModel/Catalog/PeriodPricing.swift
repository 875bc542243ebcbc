import PaywireWire

/// Prices per period, exact: the one rule for "$59.99 a year is $4.99 a month" and for how much
/// one plan saves against another, shared by text tags and the builder's save badges.
///
/// A year is 12 months, 52 weeks and 365 days; a month is 52/12 weeks and 365/12 days; a week is
/// 7 days. Amounts are rounded down (a label never promises less than the store charges).
package enum PeriodPricing {
    /// How many `target` units one `unit` lasts, as a fraction (numerator, denominator).
    package static func length(of unit: SubscriptionPeriod.Unit, in target: SubscriptionPeriod.Unit) -> (Int, Int) {
        switch (unit, target) {
        case (.day, .day), (.week, .week), (.month, .month), (.year, .year): return (1, 1)
        case (.week, .day): return (7, 1)
        case (.month, .day): return (365, 12)
        case (.year, .day): return (365, 1)
        case (.day, .week): return (1, 7)
        case (.month, .week): return (52, 12)
        case (.year, .week): return (52, 1)
        case (.day, .month): return (12, 365)
        case (.week, .month): return (12, 52)
        case (.year, .month): return (12, 1)
        case (.day, .year): return (1, 365)
        case (.week, .year): return (1, 52)
        case (.month, .year): return (1, 12)
        }
    }

    /// The price of one `target` unit of a subscription costing `amount` every `period`,
    /// rounded down to `decimals`; nil when it overflows.
    package static func price(_ amount: DecimalAmount, every period: SubscriptionPeriod, per target: SubscriptionPeriod.Unit,
                              decimals: Int) -> DecimalAmount? {
        let (numerator, denominator) = length(of: period.unit, in: target)
        guard let scaleUp = DecimalAmount.power(decimals), let scaleDown = DecimalAmount.power(amount.scale),
              let dividend = DecimalAmount.multiply([amount.units, WideInt(denominator), scaleUp]),
              let divisor = DecimalAmount.multiply([scaleDown, WideInt(period.numberOfUnits), WideInt(numerator)]), divisor > 0 else { return nil }
        return DecimalAmount(units: dividend / divisor, scale: decimals)
    }

    /// The price per month as an exact fraction (numerator, denominator); nil on overflow.
    package static func monthly(_ amount: DecimalAmount, every period: SubscriptionPeriod) -> (WideInt, WideInt)? {
        let (numerator, denominator) = length(of: period.unit, in: .month)
        guard let scaleDown = DecimalAmount.power(amount.scale),
              let top = DecimalAmount.multiply([amount.units, WideInt(denominator)]),
              let bottom = DecimalAmount.multiply([scaleDown, WideInt(period.numberOfUnits), WideInt(numerator)]) else { return nil }
        return (top, bottom)
    }

    /// Whole percent saved per month by paying `amount` every `period` instead of `reference`
    /// every `referencePeriod` (the same currency), rounded down; 0 when it saves nothing; nil
    /// when the reference is free or the numbers overflow.
    package static func discountPercent(_ amount: DecimalAmount, every period: SubscriptionPeriod,
                                        against reference: DecimalAmount, every referencePeriod: SubscriptionPeriod) -> Int? {
        guard let (top, bottom) = monthly(amount, every: period),
              let (referenceTop, referenceBottom) = monthly(reference, every: referencePeriod), referenceTop > 0,
              let mine = DecimalAmount.multiply([top, referenceBottom]),
              let theirs = DecimalAmount.multiply([referenceTop, bottom]) else { return nil }
        guard mine < theirs else { return 0 }
        guard let saved = DecimalAmount.multiply([theirs - mine, 100]) else { return nil }
        return Int(saved / theirs)  // 0...100: mine >= 0, so saved <= 100 * theirs
    }

    /// Whether the first monthly fraction is less than the second; nil on overflow.
    package static func isLess(_ left: (WideInt, WideInt), than right: (WideInt, WideInt)) -> Bool? {
        guard let a = DecimalAmount.multiply([left.0, right.1]), let b = DecimalAmount.multiply([right.0, left.1]) else { return nil }
        return a < b
    }
}
