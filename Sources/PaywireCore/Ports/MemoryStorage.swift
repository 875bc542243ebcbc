import PaywireModel
import PaywireWire

/// Keeps records in memory for one client's lifetime (no `storage_dir`).
final class MemoryStorage: Storage {
    private var records: [String: [UInt8]] = [:]
    func read(_ key: String) throws(WireError) -> [UInt8]? { records[key] }
    func write(_ key: String, _ bytes: [UInt8]) throws(WireError) { records[key] = bytes }
    func remove(_ key: String) throws(WireError) { records.removeValue(forKey: key) }
    func close() {}
}
