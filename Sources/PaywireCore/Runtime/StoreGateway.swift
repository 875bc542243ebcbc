/// Carries store operations out whatever the adapter's plan: an outcome now, a timer for a
/// delayed one, or a `host_request` whose answer the client routes back here. The caller learns
/// the outcome now or, later, through `Client` routing by `StoreTicket`.
final class StoreGateway {
    let adapter: StoreAdapter
    private let broker: HostRequestBroker
    private let timers: Timers

    init(adapter: StoreAdapter, broker: HostRequestBroker, timers: Timers) {
        self.adapter = adapter
        self.broker = broker
        self.timers = timers
    }

    /// Starts `operation` for `ticket`: its outcome now, or nil when it comes later.
    func start(_ operation: StoreOperation, for ticket: StoreTicket, view: ViewInfo?) -> StoreOutcome? {
        carry(adapter.plan(operation), operation, for: ticket, view: view)
    }

    /// Carries out a plan already made (a caller that must promise its answer first, before
    /// anything is asked of the host, plans and carries separately).
    func carry(_ plan: StorePlan, _ operation: StoreOperation, for ticket: StoreTicket, view: ViewInfo?) -> StoreOutcome? {
        switch plan {
        case .now(let outcome):
            return outcome
        case .after(let milliseconds):
            timers.schedule(.storeDelay(ticket, operation), after: milliseconds)
            return nil
        case .askHost(let kind, let payload):
            broker.ask(kind, view: view, resume: .store(ticket, operation), payload: payload)
            return nil
        }
    }

    func delayPassed(_ operation: StoreOperation) -> StoreOutcome { adapter.delayedOutcome(of: operation) }

    /// How long the host has to answer a store request.
    var hostTimeout: Int { broker.timeout }

    func hostAnswered(_ operation: StoreOperation, _ outcome: HostOutcome) -> StoreOutcome {
        adapter.outcome(of: operation, answer: outcome)
    }
}
