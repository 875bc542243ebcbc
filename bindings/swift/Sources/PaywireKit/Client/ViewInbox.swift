/// The one queue of a controller: its view's events, in the order the pump routed them, and
/// the controller's own reports (a view the core could not create), waiting to become delegate
/// calls on the main actor.
///
/// The pump's thread only appends, under a lock, and never waits for the main actor: that is
/// what lets an action block the main thread until the pump has routed everything the core
/// emitted while taking it. Whatever is appended is drained in order, on the main actor, by
/// whoever comes first: the action that caused it (before it returns), or the drain every append
/// queues on the main queue (events that come later). Each entry is taken before it runs, so a
/// delegate method that calls another action drains the rest inside that action, still in order,
/// and the drain outside it finds nothing left.
final class ViewInbox: Sendable {
    /// Where a view's events go: the controller's handler, on the main actor.
    typealias Target = @MainActor @Sendable (PaywireEvent) -> Void
    typealias Work = @MainActor @Sendable () -> Void

    private enum Entry {
        case event(PaywireEvent)
        case work(Work)
    }

    private struct State {
        var entries: [Entry] = []
        var next = 0
        var target: Target?
    }

    private let state = Locked(State())

    /// From now on the view's events go to `target` (set before the view is attached to its
    /// route, so no event comes before it).
    func deliver(to target: @escaping Target) { state.withLock { $0.target = target } }

    /// On any thread (the pump's): queues an event of the view.
    func post(_ event: PaywireEvent) { append([.event(event)]) }

    /// On any thread: queues events of the view, in this order.
    func post(_ events: [PaywireEvent]) { append(events.map(Entry.event)) }

    /// Queues work of the controller's own, after every event queued before it.
    func post(work: @escaping Work) { append([.work(work)]) }

    private func append(_ new: [Entry]) {
        guard !new.isEmpty else { return }
        state.withLock { $0.entries.append(contentsOf: new) }
        MainDelivery.async { [self] in drain() }
    }

    /// Runs every entry queued so far, and those queued while it runs, in order.
    @MainActor
    func drain() {
        while let (entry, target) = take() {
            switch entry {
            case .event(let event): target?(event)
            case .work(let work): work()
            }
        }
    }

    private func take() -> (Entry, Target?)? {
        state.withLock { state in
            guard state.next < state.entries.count else { return nil }
            let entry = state.entries[state.next]
            state.next += 1
            if state.next == state.entries.count {
                state.entries.removeAll(keepingCapacity: true)
                state.next = 0
            }
            return (entry, state.target)
        }
    }
}
