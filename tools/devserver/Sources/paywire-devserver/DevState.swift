import Foundation

/// The server's mutable state, one owner: the faults in force, what was asked, and the
/// profiles it knows.
actor DevState {
    private(set) var faults: Faults
    private var requestCount = 0
    private var requestsByPath: [String: Int] = [:]
    private var responsesByStatus: [String: Int] = [:]
    /// Profile id -> the profile object's JSON text.
    private var profiles: [String: Data]
    /// The profiles given at start (`--profiles`), which a reset restores.
    private let initialProfiles: [String: Data]

    init(faults: Faults, profiles: [String: Data]) {
        self.faults = faults
        self.profiles = profiles
        initialProfiles = profiles
    }

    func setFaults(_ faults: Faults) { self.faults = faults }

    private var inFlight = 0

    /// Counts an API request as it arrives.
    func arrived(_ path: String) {
        requestCount += 1
        requestsByPath[path, default: 0] += 1
        inFlight += 1
    }

    /// Counts the status an API request was answered with (for a drop, the status it began with).
    func answered(status: Int) {
        responsesByStatus[String(status), default: 0] += 1
        inFlight -= 1
    }

    func reset() {
        faults = Faults()
        requestCount = 0
        requestsByPath = [:]
        responsesByStatus = [:]
        profiles = initialProfiles
    }

    /// How many API requests came, by path, how each was answered, by status, and how many
    /// are still being answered (a test waits for none before the next one).
    var stats: (requests: Int, byPath: [String: Int], byStatus: [String: Int], inFlight: Int) {
        (requestCount, requestsByPath, responsesByStatus, inFlight)
    }

    func profile(_ id: String) -> Data? { profiles[id] }

    func setProfile(_ id: String, _ profile: Data) { profiles[id] = profile }
}
