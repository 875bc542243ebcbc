/// Which controller's inbox takes the events and host requests of which view.
///
/// A view's id is known only once `create_paywall_view` (or `create_onboarding_view`) answers,
/// and the core may already have sent events for it (a preload that failed) that the pump
/// routes before the creating thread has the id. While a controller is creating its view,
/// events for views no controller holds yet are kept, in order; `attach` moves those of the new
/// view into its inbox under the same lock that registers it, so none is lost and the order
/// holds (the pump appends what comes later behind them).
final class ViewRoutes: Sendable {
    private struct State {
        var inboxes: [String: ViewInbox] = [:]
        var creating = 0
        var kept: [(view: String, event: PaywireEvent)] = []
    }

    /// Held while controllers create views and no controller claims them: more means a view no
    /// controller creates is being talked about; the oldest go (they are on `client.events` too).
    private static let keptLimit = 1_000
    private let state = Locked(State())

    /// A controller is about to create a view: keep unclaimed view events until it attaches.
    func beginCreating() { state.withLock { $0.creating += 1 } }

    /// The view was created: from now on its events go to `inbox`, those that came first before them.
    func attach(view: String, inbox: ViewInbox) {
        state.withLock { state in
            state.inboxes[view] = inbox
            state.creating = max(0, state.creating - 1)
            inbox.post(state.kept.filter { $0.view == view }.map(\.event))
            let noneCreating = state.creating == 0
            state.kept.removeAll { $0.view == view || noneCreating }
        }
    }

    /// The view could not be created.
    func endCreating() {
        state.withLock { state in
            state.creating = max(0, state.creating - 1)
            if state.creating == 0 { state.kept = [] }
        }
    }

    /// The controller is gone: its view's events go nowhere now.
    func detach(view: String) { _ = state.withLock { $0.inboxes.removeValue(forKey: view) } }

    /// On the pump's thread: gives an event of `view` to the inbox that holds the view, else
    /// keeps it while a controller may yet claim it.
    func route(_ event: PaywireEvent, view: String) {
        state.withLock { state in
            if let inbox = state.inboxes[view] {
                inbox.post(event)
            } else if state.creating > 0 {
                state.kept.append((view, event))
                if state.kept.count > ViewRoutes.keptLimit { state.kept.removeFirst() }
            }
        }
    }
}
