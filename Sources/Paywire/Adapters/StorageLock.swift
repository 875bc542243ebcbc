import PaywireCore
import PaywireModel
import PaywireWire
import CPosix

/// One owner per `storage_dir`: an exclusive `flock` on `<storage_dir>/paywire.lock`, held for
/// the client's lifetime.
///
/// Why exclusive ownership rather than shared files with locked read-modify-write: a client
/// keeps what it read (the profile, answers, cached placements) in memory and serves from it,
/// so a second writer would make that memory silently stale even if no byte were lost; and
/// the outbox's SQLite file needs one writer anyway. A second client on the directory, in this
/// process or another, is refused with `storage_locked` instead of waiting.
///
/// `flock` rather than `fcntl` record locks: a flock belongs to the open file description, so
/// two clients in one process conflict as two processes do (a record lock is per process, and
/// closing any descriptor of the file would drop it). The kernel releases it when the process
/// dies, so a crash never leaves the directory locked; the file itself stays, empty, and is
/// reused. The descriptor is close-on-exec, so a program the host starts does not inherit it.
final class StorageLock {
    static let fileName = "paywire.lock"

    private var descriptor: Int32

    /// Takes the lock without waiting: `storage_locked` when another client holds it,
    /// `storage_failed` naming the lock file when it cannot be created or locked.
    init(directory: String) throws(WireError) {
        let path = "\(directory)/\(StorageLock.fileName)"
        var fd = pw_open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        let reason = fd < 0 ? LocalFiles.errorText() : ""  // the first refusal is the one to report
        if fd < 0 && (pw_errno() == EROFS || pw_errno() == EACCES) {
            // A read-only directory that already holds the lock file can still be locked, so
            // the failure the host hears names the file that cannot be written (the outbox's,
            // at the start), not the lock.
            fd = pw_open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
        }
        guard fd >= 0 else {
            throw WireError(.storageFailed, "cannot create the lock file '\(path)': \(reason)",
                            details: JSONObject([("path", .string(path)), ("field", .string("storage_dir"))]))
        }
        var result: Int32
        repeat { result = flock(fd, LOCK_EX | LOCK_NB) } while result != 0 && pw_errno() == EINTR
        guard result == 0 else {
            let reason = pw_errno()
            let text = LocalFiles.errorText()
            close(fd)
            if reason == EWOULDBLOCK {
                throw WireError(.storageLocked,
                                "storage_dir '\(directory)' is in use by another Paywire client (in this process or another); free that client first, or give each client its own directory",
                                details: JSONObject([("path", .string(directory)), ("field", .string("storage_dir"))]))
            }
            throw WireError(.storageFailed, "cannot lock '\(path)': \(text)",
                            details: JSONObject([("path", .string(path)), ("field", .string("storage_dir"))]))
        }
        descriptor = fd
    }

    /// Whether the lock is still held.
    var isHeld: Bool { descriptor >= 0 }

    /// Releases the lock now; a second call does nothing.
    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
