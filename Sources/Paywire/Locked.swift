/// A value guarded by a pthread mutex. Used instead of `Synchronization.Mutex` because
/// ThreadSanitizer understands pthread locks (it cannot see Mutex's futex), so `make stress`
/// can check the boundary's locking for real.
final class Locked<Value>: @unchecked Sendable {
    private let monitor = Monitor()
    /// Only ever reached inside `monitor`, which already gives the access its exclusivity; the
    /// runtime's dynamic check of each access cost more than the lock itself on the call path.
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    @inline(__always)
    func withLock<T, Failure: Error>(_ body: (inout Value) throws(Failure) -> T) throws(Failure) -> T {
        try monitor.locked { () throws(Failure) -> T in try body(&value) }
    }
}
