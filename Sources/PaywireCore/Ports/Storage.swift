#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small named records the client keeps between runs (the profile, onboarding answers, fetched
/// placements).
///
/// The rule every record follows: a flow writes the record first and changes its in-memory
/// state only when the write succeeded, so memory never claims what the disk did not keep. A
/// failed write throws `storage_failed` with `details.path` naming the file.
protocol Storage: AnyObject {
    /// The record's bytes, or nil when it was never written.
    func read(_ key: String) throws(WireError) -> [UInt8]?
    /// Replaces the record atomically: a reader sees the old bytes or the new, never a mix.
    func write(_ key: String, _ bytes: [UInt8]) throws(WireError)
    /// Deletes the record; a missing one is not an error.
    func remove(_ key: String) throws(WireError)
    /// Gives up the storage (a directory's ownership lock); later reads and writes fail.
    func close()
}

/// Keeps records in memory for one client's lifetime (no `storage_dir`).
final class MemoryStorage: Storage {
    private var records: [String: [UInt8]] = [:]
    func read(_ key: String) throws(WireError) -> [UInt8]? { records[key] }
    func write(_ key: String, _ bytes: [UInt8]) throws(WireError) { records[key] = bytes }
    func remove(_ key: String) throws(WireError) { records.removeValue(forKey: key) }
    func close() {}
}

/// Reading whole files, for `fallback.path` and `DirectoryStorage`.
enum LocalFiles {
    /// Largest file read (a fallback bundle of thousands of placements fits easily).
    static let maxBytes = 256 << 20

    static func errorText() -> String { String(cString: strerror(errno)) }

    /// The file's bytes; nil only when `missingIsNil` and the file does not exist. Only regular
    /// files are read: anything else is refused before it is opened, because opening a FIFO
    /// blocks and opening a device can have effects of its own. `failure` is the code of an
    /// error (`not_found` for a file the host named, `storage_failed` for a stored record).
    static func read(_ path: String, missingIsNil: Bool = false, failure: ErrorCode = .notFound) throws(WireError) -> [UInt8]? {
        func refuse(_ code: ErrorCode, _ reason: String) -> WireError {
            WireError(code, "cannot read '\(path)': \(reason)", details: JSONObject([("path", .string(path))]))
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            if missingIsNil && errno == ENOENT { return nil }
            throw refuse(failure, errorText())
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw refuse(failure, "not a regular file") }
        // O_NONBLOCK: should a FIFO have replaced the file since stat, open returns at once.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if missingIsNil && errno == ENOENT { return nil }
            throw refuse(failure, errorText())
        }
        defer { close(fd) }
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw refuse(failure, "not a regular file") }
        guard Int(info.st_size) <= maxBytes else { throw refuse(.wrongParam, "larger than \(maxBytes) bytes") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in Glibc.read(fd, buffer.baseAddress, buffer.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw refuse(failure, errorText())
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maxBytes else { throw refuse(.wrongParam, "larger than \(maxBytes) bytes") }
        }
        return bytes
    }
}
