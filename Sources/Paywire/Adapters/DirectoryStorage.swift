import PaywireCore
import PaywireModel
import PaywireWire
import CPosix

/// Keeps records as files `<dir>/<key>.json`, readable by the owner only, written by
/// write-to-temporary + fsync + rename (+ fsync of the directory, so the rename survives a
/// power loss too).
///
/// The directory has one owner at a time (`StorageLock`): a second client on it is refused
/// with `storage_locked`. The owner removes, when it starts, the temporary files a writer that
/// crashed left behind (`<key>.json.tmp.<pid>`); no live writer can own one then, because
/// every writer holds the lock. Nothing else in the directory is ever touched.
final class DirectoryStorage: Storage {
    private let directory: String
    private let lock: StorageLock

    /// Opens (creating with mode 0700 if needed) and locks the directory, then clears debris.
    init(directory: String) throws(WireError) {
        self.directory = directory
        if mkdir(directory, 0o700) != 0 && pw_errno() != EEXIST {
            throw WireError(.storageFailed, "cannot create storage_dir '\(directory)': \(LocalFiles.errorText())",
                            details: JSONObject([("field", .string("storage_dir")), ("path", .string(directory))]))
        }
        var info = pw_file_info()
        guard pw_stat(directory, &info) == 0, (info.mode & mode_t(S_IFMT)) == mode_t(S_IFDIR) else {
            throw WireError(.storageFailed, "storage_dir '\(directory)' is not a directory",
                            details: JSONObject([("field", .string("storage_dir")), ("path", .string(directory))]))
        }
        lock = try StorageLock(directory: directory)
        StorageDebris.remove(in: directory)
    }

    /// Keys are what the client names records with: lowercase letters, digits and '-' (ids
    /// that come from outside are hashed first), so no key can name a path outside the
    /// directory, and a crashed writer's temporary files can be told from anything else.
    static func isValidKey(_ key: some Collection<UInt8>) -> Bool {
        !key.isEmpty && key.count <= 128 && key.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    private func path(_ key: String) throws(WireError) -> String {
        let path = "\(directory)/\(key).json"
        guard DirectoryStorage.isValidKey(key.utf8) else {
            throw WireError(.internal, "'\(key)' is not a storage key", details: JSONObject([("path", .string(path))]))
        }
        guard lock.isHeld else {
            throw WireError(.storageFailed, "the client's storage is closed", details: JSONObject([("path", .string(path))]))
        }
        return path
    }

    func close() { lock.release() }

    func read(_ key: String) throws(WireError) -> [UInt8]? {
        try LocalFiles.read(try path(key), missingIsNil: true, failure: .storageFailed)
    }

    func remove(_ key: String) throws(WireError) {
        let target = try path(key)
        if unlink(target) != 0 && pw_errno() != ENOENT {
            throw LocalFiles.storageFailure("cannot remove", target)
        }
    }

    func write(_ key: String, _ bytes: [UInt8]) throws(WireError) {
        let target = try path(key)
        let temporary = "\(target)\(StorageDebris.temporaryInfix)\(getpid())"
        let fd = pw_open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw LocalFiles.storageFailure("cannot write", target) }
        var failure: WireError?
        if !DirectoryStorage.writeAll(fd, bytes) || fsync(fd) != 0 {
            failure = LocalFiles.storageFailure("cannot write", target)
        }
        if CPosix.close(fd) != 0 && failure == nil {
            failure = LocalFiles.storageFailure("cannot write", target)  // NFS reports ENOSPC here
        }
        if failure == nil && rename(temporary, target) != 0 {
            failure = LocalFiles.storageFailure("cannot replace", target)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
        syncDirectory()
    }

    /// Makes the rename itself durable. A directory that cannot be opened or synced (some
    /// filesystems refuse fsync on directories) keeps the rename anyway: the file is complete.
    private func syncDirectory() {
        let fd = pw_open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        CPosix.close(fd)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                guard let base = buffer.baseAddress else { return false }
                let result = CPosix.write(fd, base + written, buffer.count - written)
                if result < 0 && pw_errno() == EINTR { continue }
                guard result > 0 else {  // a write of nothing would loop forever
                    if result == 0 { pw_set_errno(EIO) }  // so the failure names a reason, not a stale one
                    return false
                }
                written += result
            }
            return true
        }
    }
}

/// The temporary files `DirectoryStorage.write` makes, and their removal at start.
enum StorageDebris {
    /// A temporary file is `<key>.json.tmp.<pid>`.
    static let temporaryInfix = ".tmp."

    /// Whether `name` is exactly a temporary file of `DirectoryStorage.write`: a valid key,
    /// `.json.tmp.`, then 1 to 10 decimal digits. Anything else (the outbox's SQLite files,
    /// a host's own files) is not ours.
    static func isTemporaryFile(_ name: [UInt8]) -> Bool {
        let marker = Array(".json\(temporaryInfix)".utf8)
        guard name.count > marker.count else { return false }
        for start in 1...(name.count - marker.count) where name[start..<(start + marker.count)].elementsEqual(marker) {
            let key = name[0..<start]
            let digits = name[(start + marker.count)...]
            return DirectoryStorage.isValidKey(key) && (1...10).contains(digits.count)
                && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        }
        return false
    }

    /// Removes every regular file in `directory` that `isTemporaryFile` names; returns how many.
    /// A file that cannot be removed (a read-only directory) stays: it is never read, and the
    /// next start tries again.
    @discardableResult
    static func remove(in directory: String) -> Int {
        guard let stream = opendir(directory) else { return 0 }
        defer { closedir(stream) }
        let fd = dirfd(stream)
        var removed = 0
        while let entry = readdir(stream) {
            let name: [UInt8] = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            guard isTemporaryFile(name) else { continue }
            // ASCII by the check above, so the String is the name byte for byte.
            let fileName = String(decoding: name, as: UTF8.self)
            var info = pw_file_info()
            guard pw_lstat_at(fd, fileName, &info) == 0, (info.mode & mode_t(S_IFMT)) == mode_t(S_IFREG) else { continue }
            let done = unlinkat(fd, fileName, 0) == 0
            if done { removed += 1 }
        }
        return removed
    }
}
