import PaywireWire
import ServerDomain

/// What the server does wrong on purpose, switched at start (`--faults JSON` and the older
/// flags) or at run time (`POST /_dev/faults`; `{}` clears). At most one way of answering
/// wrongly at a time (status, not_modified, malformed, drop); latency, the random losses and
/// the refused event names combine with it. Faults apply to `/v1` requests whose path starts
/// with `only` (all of them without it).
struct Faults: Sendable, Equatable {
    enum Failure: String, Sendable, Equatable {
        /// Answer with `status` (500 unless given), with `Retry-After` when `retry_after` is set.
        case status
        /// Answer 304 whatever the request's If-None-Match says.
        case notModified = "not_modified"
        /// Answer 200 with a body that is not JSON.
        case malformed
        /// Close the connection before the response is complete.
        case drop
    }

    var latencyMilliseconds = 0
    var failure: Failure?
    var status = 500
    var retryAfterSeconds: Int?
    /// Share of requests closed before being handled, without a response.
    var dropRate = 0.0
    /// Share of requests handled and committed, then closed without a response.
    var loseResponseRate = 0.0
    /// Makes the random choices of the two rates reproducible.
    var seed: Int?
    var only: String?
    /// An events batch with a record of one of these names is refused as `invalid_record`.
    var refuseEventsNamed: [String] = []

    static let known = ["latency_ms", "status", "retry_after", "not_modified", "malformed", "drop", "drop_rate",
                        "lose_response_rate", "seed", "only", "refuse_events_named"]

    init() {}

    init(json bytes: [UInt8]) throws(FaultsError) {
        guard let document = try? JSONValue(parsing: bytes), case .object(let object) = document else {
            throw FaultsError("the body must be a JSON object")
        }
        if let unknown = object.keys.first(where: { !Self.known.contains($0) }) {
            throw FaultsError("unknown fault '\(unknown)'; known: \(Self.known.sorted().joined(separator: ", "))")
        }
        latencyMilliseconds = try Self.integer(object["latency_ms"], "latency_ms", in: 0...600_000) ?? 0
        var failures: [Failure] = []
        if let status = try Self.integer(object["status"], "status", in: 400...599) {
            self.status = status
            failures.append(.status)
        }
        retryAfterSeconds = try Self.integer(object["retry_after"], "retry_after", in: 0...86_400)
        if retryAfterSeconds != nil && failures.isEmpty { throw FaultsError("retry_after goes with a status fault (e.g. 429 or 503)") }
        for failure in [Failure.notModified, .malformed, .drop] {
            guard let flag = object[failure.rawValue] else { continue }
            guard let on = flag.asBool else { throw FaultsError("\(failure.rawValue) must be true or false") }
            if on { failures.append(failure) }
        }
        guard failures.count <= 1 else { throw FaultsError("choose one of status, not_modified, malformed, drop") }
        failure = failures.first
        dropRate = try Self.rate(object["drop_rate"], "drop_rate")
        loseResponseRate = try Self.rate(object["lose_response_rate"], "lose_response_rate")
        seed = try Self.integer(object["seed"], "seed", in: Int(Int32.min)...Int(Int32.max))
        if let only = object["only"] {
            guard let prefix = only.asString, prefix.hasPrefix("/") else { throw FaultsError("only must be a path prefix such as \"/v1/events\"") }
            self.only = prefix
        }
        if let names = object["refuse_events_named"] {
            guard let list = names.asArray?.compactMap(\.asString), list.count == names.asArray?.count else {
                throw FaultsError("refuse_events_named must be an array of event names")
            }
            refuseEventsNamed = list
        }
    }

    /// Whether the faults apply to a request of this path.
    func applies(to path: String) -> Bool { only.map { path.hasPrefix($0) } ?? true }

    /// The faults in force, as set (defaults left out, but latency always shown).
    var json: JSONValue {
        var members: [(String, JSONValue)] = [("latency_ms", .int(latencyMilliseconds))]
        switch failure {
        case .status?: members.append(("status", .int(status)))
        case let failure?: members.append((failure.rawValue, .bool(true)))
        case nil: break
        }
        if let retryAfterSeconds { members.append(("retry_after", .int(retryAfterSeconds))) }
        if dropRate > 0 { members.append(("drop_rate", .double(dropRate))) }
        if loseResponseRate > 0 { members.append(("lose_response_rate", .double(loseResponseRate))) }
        if let seed { members.append(("seed", .int(seed))) }
        if let only { members.append(("only", .string(only))) }
        if !refuseEventsNamed.isEmpty { members.append(("refuse_events_named", .strings(refuseEventsNamed))) }
        return .object(members)
    }

    private static func integer(_ value: JSONValue?, _ name: String, in range: ClosedRange<Int>) throws(FaultsError) -> Int? {
        guard let value else { return nil }
        guard let number = value.asInt, range.contains(number) else {
            throw FaultsError("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    private static func rate(_ value: JSONValue?, _ name: String) throws(FaultsError) -> Double {
        guard let value else { return 0 }
        guard case .number(let number) = value, let rate = number.doubleValue, (0...1).contains(rate) else {
            throw FaultsError("\(name) must be a number in 0...1")
        }
        return rate
    }
}

struct FaultsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A small seeded generator (SplitMix64) so `seed` makes the fault dice reproducible.
struct FaultDice: Sendable {
    private var state: UInt64

    init(seed: Int?, random: any RandomSource) {
        state = seed.map { UInt64(bitPattern: Int64($0)) } ?? random.bytes(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// True with probability `rate`.
    mutating func roll(_ rate: Double) -> Bool {
        guard rate > 0 else { return false }
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return Double(mixed >> 11) / Double(1 << 53) < rate
    }
}
