import PaywireModel
import PaywireWire

/// Which store a config's `store` asks for, read and checked with the config; the store itself
/// is built with the client's clock and random source (a fresh one each time: the test store
/// keeps per-client state such as remaining scripted failures).
enum StoreChoice: Sendable {
    case none
    case test(TestStore.Script)
    case host

    init(_ fields: Fields) throws(WireError) {
        switch try fields.string("type") {
        case "none": self = .none
        case "test": self = .test(try TestStore.load(fields))
        case "host": self = .host
        case let other: throw WireError.wrongParam(fields.fieldPath("type"), "'\(other)' is not one of: test, host, none")
        }
    }

    func make(clock: Clock, random: RandomSource) -> StoreAdapter {
        switch self {
        case .none: return NoStore()
        case .test(let script): return TestStore(script, clock: clock, random: random)
        case .host: return HostStore(now: clock.nowMilliseconds)
        }
    }
}
