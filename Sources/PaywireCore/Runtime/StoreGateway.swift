import PaywireModel
import PaywireWire

/// What the part that started a store operation does with its outcome when it comes later.
typealias StoreReply = (StoreOutcome) -> Void

/// Carries store operations out whatever the adapter's plan: an outcome now, a timer for a
/// delayed one, or a `host_request`. The caller learns the outcome now or, later, through the
/// reply it handed over.
final class StoreGateway {
    private let adapter: StoreAdapter
    private let broker: HostRequestBroker
    private let timers: Timers

    init(adapter: StoreAdapter, broker: HostRequestBroker, timers: Timers) {
        self.adapter = adapter
        self.broker = broker
        self.timers = timers
    }

    /// Starts `operation`: its outcome now, or nil when it comes later through `reply`.
    func start(_ operation: StoreOperation, origin: HostRequestOrigin?, reply: @escaping StoreReply) -> StoreOutcome? {
        carry(adapter.plan(operation), operation, origin: origin, reply: reply)
    }

    /// Carries out a plan already made (a caller that must promise its answer first, before
    /// anything is asked of the host, plans and carries separately).
    func carry(_ plan: StorePlan, _ operation: StoreOperation, origin: HostRequestOrigin?, reply: @escaping StoreReply) -> StoreOutcome? {
        let adapter = self.adapter
        switch plan {
        case .now(let outcome):
            return outcome
        case .after(let milliseconds):
            timers.schedule(after: milliseconds) { reply(adapter.delayedOutcome(of: operation)) }
            return nil
        case .askHost(let kind, let payload):
            broker.ask(kind, origin: origin, payload: payload) { outcome in reply(adapter.outcome(of: operation, answer: outcome)) }
            return nil
        }
    }

    /// How long the host has to answer a store request.
    var hostTimeout: WideInt { broker.timeout }

    // What flows ask of the store before they start an operation (`StoreAdapter`).

    /// Why no operation can start (no billing provider), or nil when the store is there.
    var unavailable: WireError? { adapter.unavailable }
    /// Whether the store describes a product only after a fetch.
    var describesProductsOnlyAfterFetch: Bool { adapter.describesProductsOnlyAfterFetch }
    /// The products among `ids` the store describes without a fetch, in the order asked.
    func knownProducts(_ ids: [String]) -> [StoreProduct] { adapter.knownProducts(ids) }
    /// How `operation` would proceed, for a caller that must promise its answer first.
    func plan(_ operation: StoreOperation) -> StorePlan { adapter.plan(operation) }
}
