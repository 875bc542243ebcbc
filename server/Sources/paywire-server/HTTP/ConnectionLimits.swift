/// What this replica's connections may take, so that a flood of them is answered instead of
/// taking the process's last file descriptor: libdispatch, SQLite and the logs need some, and
/// libdispatch stops the process (SIGILL) when it cannot open one.
/// - `perAddress` connections from one client address are served (0: no such limit); past it,
///   and past `total` connections in all, a new connection is shed: answered `503` with
///   `Retry-After` and closed at once;
/// - past `acceptCeiling` (served and shed together) the server stops accepting until some close;
/// - a request's head must have arrived `headMillis` after its first byte, its body `bodyMillis`
///   after its head (`RequestDeadlines`).
struct ConnectionLimits: Sendable, Equatable {
    var total: Int
    var perAddress: Int
    var acceptCeiling: Int
    var headMillis: Int
    var bodyMillis: Int

    static let defaultPerAddress = 128
    static let defaultHeadMillis = 15_000
    static let defaultBodyMillis = 60_000
    /// Served connections, whatever the descriptor limit allows.
    static let mostByDefault = 16_384

    /// The limits of a process that may open `descriptors` files (its `RLIMIT_NOFILE`):
    /// an eighth of them (at least 64) is kept for everything but connections, a sixteenth
    /// (16 to 256) for connections being shed. `total` nil: as many as that leaves.
    static func make(descriptors: Int, total: Int?, perAddress: Int = defaultPerAddress, headMillis: Int = defaultHeadMillis,
                     bodyMillis: Int = defaultBodyMillis) throws(StartProblem) -> ConnectionLimits {
        let kept = max(64, descriptors / 8)
        let shedding = min(256, max(16, descriptors / 16))
        let room = descriptors - kept - shedding
        let served = total ?? min(mostByDefault, room)
        guard served >= 1, served <= room else {
            throw StartProblem("--max-connections \(total.map(String.init) ?? "") needs about \(served + kept + shedding) file descriptors, "
                               + "and this process may open \(descriptors) (ulimit -n): lower it, or raise the limit")
        }
        return ConnectionLimits(total: served, perAddress: perAddress, acceptCeiling: served + shedding,
                                headMillis: headMillis, bodyMillis: bodyMillis)
    }
}

/// The connections served now, in all and per client address. Pure: the gate keeps it under a
/// lock and gives it the limits.
struct ConnectionCounts: Sendable {
    enum Admission: Equatable {
        case admitted
        /// Shed, and why, for the answer.
        case shed(String)
    }

    private(set) var total = 0
    private var byAddress: [String: Int] = [:]

    func held(by address: String) -> Int { byAddress[address] ?? 0 }

    /// Counts a new connection from `address` in, unless a limit says to shed it.
    mutating func admit(_ address: String, within limits: ConnectionLimits) -> Admission {
        if limits.perAddress > 0, held(by: address) >= limits.perAddress {
            return .shed("this address holds \(limits.perAddress) connections already (--max-connections-per-address)")
        }
        guard total < limits.total else {
            return .shed("the server holds \(limits.total) connections (--max-connections)")
        }
        total += 1
        byAddress[address, default: 0] += 1
        return .admitted
    }

    /// Counts an admitted connection out; the address is forgotten with its last one.
    mutating func release(_ address: String) {
        guard let held = byAddress[address] else { return }
        total -= 1
        byAddress[address] = held > 1 ? held - 1 : nil
    }
}
