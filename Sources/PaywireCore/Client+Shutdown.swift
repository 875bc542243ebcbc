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
/// 4. `tearDown()`: once no call, timer firing or answer can reach the client any more.
extension Client {
    /// A last analytics batch leaves when it can. Returns how long the boundary may wait for
    /// it (`isSettled` tells when it is done), or nil.
    public func beginClosing() -> WideInt? { outbox.beginClosing() }

    /// Whether nothing the client started on its own is in flight any more.
    public var isSettled: Bool { !outbox.isSending }

    /// Releases what the client holds outside memory: the ownership lock of its `storage_dir`,
    /// so another client may take the directory as soon as this returns. Later writes fail.
    public func releaseFiles() {
        outboxStore.close()  // first: the next owner must find the database closed
        storage.close()
    }

    /// Drops every reply the client is still owed, unanswered: timers' work, open host
    /// requests, the built-in client's requests in flight, and what parts keep for them
    /// (placement fetches' waiters, a profile fetch's replies, verdict waits, access alarms).
    ///
    /// Each reply holds the part that asked (strongly: the library has no weak references),
    /// and the part holds the table the reply waits in, so the tables own the parts until they
    /// are emptied here; after it, freeing the client frees every part. Nothing runs and no
    /// event is emitted: the boundary calls this once the client is closed.
    public func tearDown() {
        loader.cancelAll()
        purchases.ledger.cancelAll()
        profiles.fetch?.cancelAll()
        backend?.cancelAll()
        broker.cancelAll()
        accessClock.cancelAll()
        timers.cancelAll()
    }
}
