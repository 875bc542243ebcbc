/// Spans of time in the milliseconds every time on the wire is counted in.
public enum Milliseconds {
    public static let second = 1000
    public static let minute = 60 * second
    public static let hour = 60 * minute
    public static let day = 24 * hour
}
