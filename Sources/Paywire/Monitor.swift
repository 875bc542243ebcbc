import CPosix

/// A mutex with a condition variable, for waits that need a deadline (`paywire_client_poll`).
/// The condition uses CLOCK_MONOTONIC so a wall-clock change cannot stretch a wait.
final class Monitor: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    @inline(__always)
    func locked<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` with the mutex released; call while holding it. Holds it again after.
    @inline(__always)
    func unlocked<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        pthread_mutex_unlock(mutex)
        defer { pthread_mutex_lock(mutex) }
        return try body()
    }

    /// Waits (holding the mutex) until woken. Only for a wait whose end is certain to come.
    func waitIndefinitely() { pthread_cond_wait(condition, mutex) }

    /// Wakes every waiter. Call while holding the mutex.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits (holding the mutex) until woken or until `deadline`; false when the deadline passed.
    func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// The monotonic time `milliseconds` from now.
    static func deadline(afterMilliseconds milliseconds: Int32) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int(now.tv_nsec) + Int(milliseconds % 1000) * 1_000_000
        return timespec(tv_sec: now.tv_sec + Int(milliseconds / 1000) + nanoseconds / 1_000_000_000,
                        tv_nsec: nanoseconds % 1_000_000_000)
    }

    /// Whether the monotonic clock has reached `deadline`.
    static func hasPassed(_ deadline: timespec) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec > deadline.tv_sec || (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec)
    }
}
