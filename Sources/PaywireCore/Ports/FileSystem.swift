import PaywireModel
import PaywireWire

/// The files a client reads and keeps, as the core sees them: a port, so the core does no I/O
/// of its own. The library's adapter reads and writes real files (`LocalFileSystem`); a client
/// built without one refuses `fallback.path` and `storage_dir`.
public protocol FileSystem: AnyObject {
    /// The whole file at `path` (a fallback bundle): `not_found` naming it when it is missing
    /// or not a regular file, `wrong_param` when it is larger than the library reads.
    func read(path: String) throws(WireError) -> [UInt8]
    /// Opens `directory` for one client (creating it, taking its ownership lock, clearing a
    /// crashed writer's debris): `storage_locked` when another client owns it, else
    /// `storage_failed` naming what could not be used.
    func openStorage(directory: String) throws(WireError) -> Storage
}

extension Optional where Wrapped == FileSystem {
    /// The file system, or the error a config naming a file gets from a client without one.
    func required(for field: String) throws(WireError) -> FileSystem {
        guard let files = self else {
            throw WireError(.wrongParam, "'\(field)' needs a file system, and this client was built without one",
                            details: JSONObject([("field", .string(field))]))
        }
        return files
    }
}
