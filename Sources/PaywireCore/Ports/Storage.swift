#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small named records the client keeps between runs (the profile, later the cache).
protocol Storage: AnyObject {
    /// The record's bytes, or nil when it was never written.
    func read(_ key: String) throws(WireError) -> [UInt8]?
    /// Replaces the record atomically: a reader sees the old bytes or the new, never a mix.
    func write(_ key: String, _ bytes: [UInt8]) throws(WireError)
    /// Deletes the record; a missing one is not an error.
    func remove(_ key: String) throws(WireError)
}

/// Keeps records in memory for one client's lifetime (no `storage_dir`).
final class MemoryStorage: Storage {
    private var records: [String: [UInt8]] = [:]
    func read(_ key: String) throws(WireError) -> [UInt8]? { records[key] }
    func write(_ key: String, _ bytes: [UInt8]) throws(WireError) { records[key] = bytes }
    func remove(_ key: String) throws(WireError) { records.removeValue(forKey: key) }
}

/// Keeps records as files `<dir>/<key>.json`, readable by the owner only, written by
/// write-to-temporary + fsync + rename.
final class DirectoryStorage: Storage {
    private let directory: String

    /// Opens (creating with mode 0700 if needed) the directory.
    init(directory: String) throws(WireError) {
        self.directory = directory
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw WireError(.storageFailed, "cannot create storage_dir '\(directory)': \(LocalFiles.errorText())",
                            details: JSONObject([("field", .string("storage_dir"))]))
        }
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw WireError(.storageFailed, "storage_dir '\(directory)' is not a directory",
                            details: JSONObject([("field", .string("storage_dir"))]))
        }
    }

    private func path(_ key: String) -> String { "\(directory)/\(key).json" }

    func read(_ key: String) throws(WireError) -> [UInt8]? {
        try LocalFiles.read(path(key), missingIsNil: true)
    }

    func remove(_ key: String) throws(WireError) {
        if unlink(path(key)) != 0 && errno != ENOENT {
            throw WireError(.storageFailed, "cannot remove '\(path(key))': \(LocalFiles.errorText())")
        }
    }

    func write(_ key: String, _ bytes: [UInt8]) throws(WireError) {
        let target = path(key)
        let temporary = "\(target).tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WireError(.storageFailed, "cannot write '\(temporary)': \(LocalFiles.errorText())") }
        var written = 0
        let ok: Bool = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                guard let base = buffer.baseAddress else { return false }
                let result = Glibc.write(fd, base + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += result
            }
            return fsync(fd) == 0
        }
        let message = ok ? "" : LocalFiles.errorText()
        close(fd)
        guard ok, rename(temporary, target) == 0 else {
            unlink(temporary)
            throw WireError(.storageFailed, "cannot write '\(target)': \(ok ? LocalFiles.errorText() : message)")
        }
    }
}

/// Reading whole files, for `fallback.path` and `DirectoryStorage`.
enum LocalFiles {
    /// Largest file read (a fallback bundle of thousands of placements fits easily).
    static let maxBytes = 256 << 20

    static func errorText() -> String { String(cString: strerror(errno)) }

    /// The file's bytes; nil only when `missingIsNil` and the file does not exist.
    static func read(_ path: String, missingIsNil: Bool = false) throws(WireError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if missingIsNil && errno == ENOENT { return nil }
            throw WireError(.notFound, "cannot open '\(path)': \(errorText())", details: JSONObject([("path", .string(path))]))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw WireError(.notFound, "'\(path)' is not a regular file", details: JSONObject([("path", .string(path))]))
        }
        guard Int(info.st_size) <= maxBytes else {
            throw WireError(.wrongParam, "'\(path)' is larger than \(maxBytes) bytes", details: JSONObject([("path", .string(path))]))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in Glibc.read(fd, buffer.baseAddress, buffer.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw WireError(.notFound, "cannot read '\(path)': \(errorText())", details: JSONObject([("path", .string(path))]))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maxBytes else {
                throw WireError(.wrongParam, "'\(path)' is larger than \(maxBytes) bytes", details: JSONObject([("path", .string(path))]))
            }
        }
        return bytes
    }
}
