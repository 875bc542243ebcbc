import PaywireWire
import ServerDomain

/// With `--dev`, the server's mutable state besides the store, one owner: the faults in force and their
/// dice, what was asked, and the profiles set by `--profiles` or `PUT /_dev/profiles/{id}`.
actor DevState {
    private(set) var faults: Faults
    private var dice: FaultDice
    private var requestCount = 0
    private var requestsByPath: [String: Int] = [:]
    private var responsesByStatus: [String: Int] = [:]
    private var inFlight = 0
    /// Profile id -> the profile as authored.
    private var profiles: [String: BackendProfile]
    /// The profiles given at start (`--profiles`), which a reset restores.
    private let initialProfiles: [String: BackendProfile]
    /// Where an unseeded run's dice start.
    private let random: any RandomSource

    init(faults: Faults, profiles: [String: BackendProfile], random: any RandomSource) {
        self.faults = faults
        self.random = random
        dice = FaultDice(seed: faults.seed, random: random)
        self.profiles = profiles
        initialProfiles = profiles
    }

    /// New faults; their dice start again from `seed`, so a seeded run repeats exactly.
    func setFaults(_ faults: Faults) {
        self.faults = faults
        dice = FaultDice(seed: faults.seed, random: random)
    }

    /// Throws the dice for a rate of the faults in force.
    func roll(_ rate: Double) -> Bool { dice.roll(rate) }

    /// Counts an API request as it arrives.
    func arrived(_ path: String) {
        requestCount += 1
        requestsByPath[path, default: 0] += 1
        inFlight += 1
    }

    /// Counts how an API request was answered: its status (for a `drop`, the status it began
    /// with), or `no_response` when its connection was closed without one.
    func answered(_ outcome: String) {
        responsesByStatus[outcome, default: 0] += 1
        inFlight -= 1
    }

    func reset() {
        setFaults(Faults())
        requestCount = 0
        requestsByPath = [:]
        responsesByStatus = [:]
        profiles = initialProfiles
    }

    /// How many API requests came, by path, how each was answered, and how many are still
    /// being answered (a test waits for none before the next one).
    var stats: JSONValue {
        .object([
            ("requests", .int(requestCount)),
            ("by_path", .object(requestsByPath.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
            ("by_status", .object(responsesByStatus.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
            ("in_flight", .int(inFlight)),
        ])
    }

    func profile(_ id: String) -> BackendProfile? { profiles[id] }

    func setProfile(_ id: String, _ profile: BackendProfile) { profiles[id] = profile }
}
