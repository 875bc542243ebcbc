import PaywireCore
import PaywireModel
import PaywireWire
import CPosix

/// The file system port's adapter: the library's own file access, for `fallback.path` and for
/// a `storage_dir` (owned through `StorageLock`, written by `DirectoryStorage`).
final class LocalFileSystem: FileSystem {
    func read(path: String) throws(WireError) -> [UInt8] {
        // Without `missingIsNil`, a missing file throws `not_found` naming it; nil never comes.
        guard let bytes = try LocalFiles.read(path) else {
            throw WireError(.notFound, "'\(path)' does not exist", details: JSONObject([("path", .string(path))]))
        }
        return bytes
    }
    func openStorage(directory: String) throws(WireError) -> Storage { try DirectoryStorage(directory: directory) }
}

/// Reading whole files, for `fallback.path` and `DirectoryStorage`.
enum LocalFiles {
    /// Largest file read (a fallback bundle of thousands of placements fits easily).
    static let maxBytes = 256 << 20

    static func errorText() -> String { String(cString: strerror(pw_errno())) }

    /// `storage_failed` naming the file and the reason (by default the system's, from errno),
    /// as every storage error says it: `details.path`, `details.underlying_error`, and `extra`.
    static func storageFailure(_ what: String, _ path: String, reason: String = errorText(),
                               extra: [(key: String, value: JSONValue)] = []) -> WireError {
        WireError(.storageFailed, "\(what) '\(path)': \(reason)",
                  details: JSONObject([("path", .string(path)), ("underlying_error", .string(reason))] + extra))
    }

    /// The file's bytes; nil only when `missingIsNil` and the file does not exist. Only regular
    /// files are read: anything else is refused before it is opened, because opening a FIFO
    /// blocks and opening a device can have effects of its own. `failure` is the code of an
    /// error (`not_found` for a file the host named, `storage_failed` for a stored record).
    static func read(_ path: String, missingIsNil: Bool = false, failure: ErrorCode = .notFound) throws(WireError) -> [UInt8]? {
        func refuse(_ code: ErrorCode, _ reason: String) -> WireError {
            WireError(code, "cannot read '\(path)': \(reason)", details: JSONObject([("path", .string(path))]))
        }
        var info = pw_file_info()
        guard pw_stat(path, &info) == 0 else {
            if missingIsNil && pw_errno() == ENOENT { return nil }
            throw refuse(failure, errorText())
        }
        guard (info.mode & mode_t(S_IFMT)) == mode_t(S_IFREG) else { throw refuse(failure, "not a regular file") }
        // O_NONBLOCK: should a FIFO have replaced the file since stat, open returns at once.
        let fd = pw_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0)
        guard fd >= 0 else {
            if missingIsNil && pw_errno() == ENOENT { return nil }
            throw refuse(failure, errorText())
        }
        defer { close(fd) }
        guard pw_fstat(fd, &info) == 0, (info.mode & mode_t(S_IFMT)) == mode_t(S_IFREG) else { throw refuse(failure, "not a regular file") }
        guard info.size <= Int64(maxBytes) else { throw refuse(.wrongParam, "larger than \(maxBytes) bytes") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in CPosix.read(fd, buffer.baseAddress, buffer.count) }
            if count < 0 {
                if pw_errno() == EINTR { continue }
                throw refuse(failure, errorText())
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maxBytes else { throw refuse(.wrongParam, "larger than \(maxBytes) bytes") }
        }
        return bytes
    }
}
