/// The IMF-fixdate of HTTP's `Date` and `Retry-After` headers (RFC 9110 5.6.7):
/// `Sun, 06 Nov 1994 08:49:37 GMT`. The one reader of HTTP dates, for the device and the server.
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Milliseconds since the epoch; nil for anything but an IMF-fixdate.
    package static func parse(_ text: String) -> WideInt? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), parts[1].count == 2,
              let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]), parts[3].count == 4 else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = Int(clock[0]), let minute = Int(clock[1]),
              let second = Int(clock[2]) else { return nil }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return ISODate.parse("\(year)-\(two(month + 1))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z")
    }
}
