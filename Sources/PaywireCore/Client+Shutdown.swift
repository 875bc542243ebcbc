import PaywireModel
import PaywireWire

/// The core's half of freeing a client, in the order the boundary runs it
/// (`ClientHandle.close`, the one place a client is shut down). The core has no threads to
/// wait with and the boundary owns the client's lock, so the core says what to do and the
/// boundary does the waiting, outside the lock, so answers can still come in:
///
/// 1. `beginClosing()`: a last analytics batch leaves; the budget the boundary may wait.
/// 2. `isSettled`: polled by the boundary until true or the budget passes.
/// 3. `releaseFiles()`: once no call can run any more.
extension Client {
    /// A last analytics batch leaves when it can. Returns how long the boundary may wait for
    /// it (`isSettled` tells when it is done), or nil.
    public func beginClosing() -> Int? { outbox.beginClosing() }

    /// Whether nothing the client started on its own is in flight any more.
    public var isSettled: Bool { !outbox.isSending }

    /// Releases what the client holds outside memory: the ownership lock of its `storage_dir`,
    /// so another client may take the directory as soon as this returns. Later writes fail.
    public func releaseFiles() {
        outboxStore.close()  // first: the next owner must find the database closed
        storage.close()
    }
}
