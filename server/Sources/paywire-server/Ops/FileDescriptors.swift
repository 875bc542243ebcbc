#if canImport(Glibc)
import Glibc
#endif

/// The open files this process may hold (`RLIMIT_NOFILE`), which bound its connections.
enum FileDescriptors {
    /// Raises the soft limit to the hard one, as servers do (the soft limit is often 1024 for
    /// compatibility with `select`, which the server does not use), and returns the limit in
    /// force after: the raised one, or the old one where the system refuses.
    static func raiseLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY and other huge limits: more than any connection count needs.
        return Int(min(limit.rlim_cur, 1 << 20))
    }
}
