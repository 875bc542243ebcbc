/// Spans of time in the milliseconds every time on the wire is counted in (`WideInt`: a time
/// since the epoch passes 2^31 ms, and so does any span longer than 25 days).
public enum Milliseconds {
    public static let second: WideInt = 1000
    public static let minute: WideInt = 60 * second
    public static let hour: WideInt = 60 * minute
    public static let day: WideInt = 24 * hour
}

extension Milliseconds {
    /// `seconds` as whole milliseconds, rounded down, within 0...WideInt.max: a timeout the input
    /// made huge (`load_timeout: 1e300`) waits as long as a timer can, instead of trapping in
    /// the conversion. NaN and negatives are 0.
    public static func of(seconds: Double) -> WideInt {
        let value = (seconds * 1000).rounded(.down)
        guard value > 0 else { return 0 }
        return value < 9.0e18 ? WideInt(value) : .max
    }
}
