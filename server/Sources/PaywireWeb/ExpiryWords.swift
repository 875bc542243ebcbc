import PaywireWire

/// When a link stops working, in words a buyer reads at a glance: how long it has left, then
/// the day and the time, with its zone said (`for 7 days, until 14 December 2026, 19:46 UTC`).
/// The wire's ISO form with milliseconds stays in the page only as the `<time>` element's
/// machine-readable `datetime`. Pure: the caller gives the moment and now.
public enum ExpiryWords {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]

    /// `for <how long>, until <day month year>, <HH:MM> UTC`.
    public static func phrase(expiresAt: Int, now: Int) -> String {
        "for \(remaining(expiresAt - now)), until \(date(expiresAt))"
    }

    /// How long `milliseconds` is, to the nearest day, else hour, else minute (at least one).
    static func remaining(_ milliseconds: Int) -> String {
        let days = (milliseconds + Milliseconds.day / 2) / Milliseconds.day
        if days >= 1 { return count(days, "day") }
        let hours = (milliseconds + Milliseconds.hour / 2) / Milliseconds.hour
        if hours >= 1 { return count(hours, "hour") }
        return count(max(1, (milliseconds + Milliseconds.minute - 1) / Milliseconds.minute), "minute")
    }

    /// `14 December 2026, 19:46 UTC`, read from the wire's own date form (one calendar, the wire's).
    static func date(_ milliseconds: Int) -> String {
        let iso = Array(ISODate.format(milliseconds: milliseconds).utf8)
        // YYYY-MM-DDTHH:MM:SS.sssZ; a year past 9999 (never a link's) is written as the wire writes it.
        guard iso.count == 24 else { return String(decoding: iso, as: UTF8.self) }
        func text(_ range: Range<Int>) -> String { String(decoding: iso[range], as: UTF8.self) }
        let month = Int(text(5..<7)).map { months[max(0, min(11, $0 - 1))] } ?? text(5..<7)
        let day = Int(text(8..<10)).map(String.init) ?? text(8..<10)
        return "\(day) \(month) \(text(0..<4)), \(text(11..<16)) UTC"
    }

    private static func count(_ value: Int, _ unit: String) -> String { "\(value) \(unit)\(value == 1 ? "" : "s")" }
}
