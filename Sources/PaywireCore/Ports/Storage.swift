import PaywireModel
import PaywireWire

/// Small named records the client keeps between runs (the profile, onboarding answers, fetched
/// placements).
///
/// The rule every record follows: a flow writes the record first and changes its in-memory
/// state only when the write succeeded, so memory never claims what the disk did not keep. A
/// failed write throws `storage_failed` with `details.path` naming the file.
public protocol Storage: AnyObject {
    /// The record's bytes, or nil when it was never written.
    func read(_ key: String) throws(WireError) -> [UInt8]?
    /// Replaces the record atomically: a reader sees the old bytes or the new, never a mix.
    func write(_ key: String, _ bytes: [UInt8]) throws(WireError)
    /// Deletes the record; a missing one is not an error.
    func remove(_ key: String) throws(WireError)
    /// Gives up the storage (a directory's ownership lock); later reads and writes fail.
    func close()
}
