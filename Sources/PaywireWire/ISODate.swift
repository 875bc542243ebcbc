/// ISO 8601 dates in UTC with milliseconds (`2024-02-15T10:30:00.000Z`), the wire's only date
/// form, and the calendar arithmetic subscriptions need. Pure integer math: no Foundation.
public enum ISODate {
    /// Milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public static func format(milliseconds: WideInt) -> String {
        let (days, dayMilliseconds) = floorDivide(milliseconds, Milliseconds.day)
        let (year, month, day) = civil(fromDays: days)
        let hours = dayMilliseconds / 3_600_000
        let minutes = dayMilliseconds / 60_000 % 60
        let seconds = dayMilliseconds / 1000 % 60
        let millis = dayMilliseconds % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z`; nil for anything else, including impossible dates.
    public static func parse(_ text: String) -> WideInt? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> WideInt? {
            var value: WideInt = 0
            for index in range {
                guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
                value = value * 10 + WideInt(bytes[index] - 48)
            }
            return value
        }
        func separator(_ index: Int, _ character: Character) -> Bool {
            index < bytes.count && bytes[index] == character.asciiValue
        }
        guard let year = number(0..<4), separator(4, "-"), let month = number(5..<7), separator(7, "-"),
              let day = number(8..<10), separator(10, "T"), let hour = number(11..<13), separator(13, ":"),
              let minute = number(14..<16), separator(16, ":"), let second = number(17..<19),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        var millis: WideInt = 0
        if bytes.count > 20 {
            guard separator(19, "."), bytes.count <= 24, let fraction = number(20..<(bytes.count - 1)) else { return nil }
            let digits = bytes.count - 21
            millis = digits == 1 ? fraction * 100 : digits == 2 ? fraction * 10 : fraction
        }
        return days(year: year, month: month, day: day) * Milliseconds.day + hour * Milliseconds.hour + minute * Milliseconds.minute
            + second * Milliseconds.second + millis
    }

    /// `milliseconds` plus `count` months, the day clamped to the target month's length
    /// (January 31 + 1 month = February 28 or 29). A result past year ±1,000,000 (a count the
    /// input made absurd) is held at `WideInt.max` or `.min` instead of overflowing.
    package static func adding(months count: WideInt, to milliseconds: WideInt) -> WideInt {
        let (days, dayMilliseconds) = floorDivide(milliseconds, Milliseconds.day)
        let (year, month, day) = civil(fromDays: days)
        let (yearOffset, monthIndex) = floorDivide((month - 1).clampedAdding(count), 12)
        let targetYear = year.clampedAdding(yearOffset)
        guard abs(targetYear) <= 1_000_000 else { return targetYear > 0 ? .max : .min }
        let targetMonth = monthIndex + 1
        let targetDay = min(day, daysIn(month: targetMonth, year: targetYear))
        return self.days(year: targetYear, month: targetMonth, day: targetDay) * Milliseconds.day + dayMilliseconds
    }

    package static func daysIn(month: WideInt, year: WideInt) -> WideInt {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func days(year: WideInt, month: WideInt, day: WideInt) -> WideInt {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400).0
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: WideInt) -> (WideInt, WideInt, WideInt) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097).0
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Quotient rounded down and a remainder in 0..<divisor (`divisor` > 0); never overflows.
    private static func floorDivide(_ value: WideInt, _ divisor: WideInt) -> (WideInt, WideInt) {
        let quotient = value / divisor, remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func pad(_ value: WideInt, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
