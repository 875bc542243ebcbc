import CPosix

/// Work run in order on one thread of the library's own: async calls, event delivery, timers
/// and the HTTP loop. The thread starts when work arrives and ends after `lingerMilliseconds`
/// with none, so an idle client holds no thread. Plain pthreads rather than libdispatch, which
/// would add 0.4 MB to every app that links the library and load a runtime most hosts never use.
final class SerialWorker: @unchecked Sendable {
    private struct Delayed {
        let deadline: timespec
        let job: () -> Void
    }

    private static let lingerMilliseconds: Int32 = 1000
    private let monitor = Monitor()
    // Guarded by `monitor`:
    private var jobs: [() -> Void] = []
    private var nextJob = 0
    /// Sorted by deadline; equal deadlines in the order they were asked for.
    private var delayed: [Delayed] = []
    private var threadRunning = false
    /// A caller's thread is running the queue (no worker thread is, and none could be started,
    /// or there was nothing to start one for): jobs queued meanwhile are its to run, in order.
    private var draining = false
    private var thread: pthread_t?

    /// Runs `job` after every job queued before it. Should no thread be startable (the system
    /// refuses one), the caller runs the queue itself rather than leave it stranded.
    func async(_ job: @escaping () -> Void) {
        let runHere: Bool = monitor.locked {
            jobs.append(job)
            return claimIfNoThread()
        }
        if runHere { drainHere() }
    }

    /// Runs `job` once `milliseconds` have passed (on the monotonic clock), after the jobs due
    /// before it. With no startable thread it waits for the next call to try again.
    func async(afterMilliseconds milliseconds: Int, _ job: @escaping () -> Void) {
        let deadline = Monitor.deadline(afterMilliseconds: Int32(clamping: max(0, milliseconds)))
        monitor.locked {
            let entry = Delayed(deadline: deadline, job: job)
            let index = delayed.firstIndex { SerialWorker.isBefore(entry.deadline, $0.deadline) } ?? delayed.endIndex
            delayed.insert(entry, at: index)
            wake()
        }
    }

    /// Runs `job` after every job queued before it, and returns when it has run. On the worker's
    /// own thread it runs at once (waiting for itself would never end). With no thread running,
    /// nothing is in progress, so the caller runs it (after anything queued) instead of starting
    /// a thread only to wait for it: freeing a client starts no thread. The wait has no
    /// deadline because what it waits for is a job in progress, such as a host's event handler,
    /// which must have returned before the caller may go on.
    func sync(_ job: @escaping () -> Void) {
        if isWorkerThread {
            job()
            return
        }
        let done = Monitor()
        var finished = false
        let runHere: Bool = monitor.locked {
            if !threadRunning && !draining {
                draining = true
                return true
            }
            jobs.append {
                job()
                done.locked {
                    finished = true
                    done.broadcast()
                }
            }
            wake()  // a thread or a draining caller is there: this only wakes it
            return false
        }
        if runHere {
            drainHere(then: job)
            return
        }
        done.locked {
            while !finished { done.waitIndefinitely() }
        }
    }

    /// Whether the caller is running on this worker's thread.
    var isWorkerThread: Bool {
        monitor.locked { thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Under `monitor`: wakes the worker, starting a thread when none runs; true when it must
    /// be the caller that runs the queue (no thread could be started), which it then owns.
    private func claimIfNoThread() -> Bool {
        if wake() { return false }
        draining = true
        return true
    }

    /// Under `monitor`: wakes the thread (or the draining caller), or starts a thread. False
    /// when none could be started: the work stays queued, and the next call tries again.
    @discardableResult
    private func wake() -> Bool {
        if threadRunning || draining {
            monitor.broadcast()
            return true
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // The thread starts with every signal blocked, so a host's process-directed signals
        // (SIGINT, SIGCHLD, a sigwait thread's) never land on a thread of the library's.
        var all = sigset_t(), previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        var id = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(&id, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<SerialWorker>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        pthread_attr_destroy(&attributes)
        guard started == 0 else {
            Unmanaged<SerialWorker>.fromOpaque(context).release()
            return false
        }
        threadRunning = true
        return true
    }

    /// Runs the queue on the caller's thread, which claimed it (`draining`), then `last`, then
    /// what came meanwhile; gives the claim back and leaves delayed jobs to a thread.
    private func drainHere(then last: (() -> Void)? = nil) {
        monitor.locked {
            var last = last
            while true {
                if let job = takeJob(includingDelayed: false) {
                    monitor.unlocked { job() }
                } else if let final = last {
                    last = nil
                    monitor.unlocked { final() }
                } else {
                    break
                }
            }
            draining = false
            if !delayed.isEmpty { wake() }
        }
    }

    private func run() {
        monitor.locked {
            thread = pthread_self()
            var lingerUntil: timespec?
            while true {
                if let job = takeJob(includingDelayed: true) {
                    lingerUntil = nil
                    monitor.unlocked { job() }
                } else if let first = delayed.first {
                    lingerUntil = nil
                    _ = monitor.wait(until: first.deadline)
                } else {
                    let linger = lingerUntil ?? Monitor.deadline(afterMilliseconds: SerialWorker.lingerMilliseconds)
                    lingerUntil = linger
                    if Monitor.hasPassed(linger) {
                        threadRunning = false
                        thread = nil
                        return
                    }
                    _ = monitor.wait(until: linger)
                }
            }
        }
    }

    /// Under `monitor`: the next queued job, or with `includingDelayed` a delayed one whose time
    /// has come.
    private func takeJob(includingDelayed: Bool) -> (() -> Void)? {
        if nextJob < jobs.count {
            let job = jobs[nextJob]
            jobs[nextJob] = {}  // the array keeps no reference to what it ran
            nextJob += 1
            if nextJob == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                nextJob = 0
            }
            return job
        }
        if includingDelayed, let first = delayed.first, Monitor.hasPassed(first.deadline) {
            delayed.removeFirst()
            return first.job
        }
        return nil
    }

    private static func isBefore(_ a: timespec, _ b: timespec) -> Bool {
        a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec)
    }
}
