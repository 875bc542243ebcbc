import Foundation

/// One piece of mutable state and the lock that guards it: the only way in is `withLock`, so
/// every access is under the lock. The body must not call back into code that takes the same
/// lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
