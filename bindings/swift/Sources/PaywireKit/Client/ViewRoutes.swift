/// Which controller hears the events and host requests of which view.
///
/// A view's id is known only once `create_paywall_view` (or `create_onboarding_view`) answers,
/// and the core may already have sent events for it (a preload that failed). While a controller
/// is creating its view, events for views no controller holds yet are kept, in order; `attach`
/// hands a controller those of its view together with registering it, so none is lost and the
/// order holds (what comes later is queued to the main actor behind them).
final class ViewRoutes: Sendable {
    /// A routed event: the typed event, or a host request.
    typealias Target = @MainActor @Sendable (PaywireEvent) -> Void

    private struct State {
        var targets: [String: Target] = [:]
        var creating = 0
        var kept: [(view: String, event: PaywireEvent)] = []
    }

    /// Held while controllers create views and no controller claims them: more means a view no
    /// controller creates is being talked about; the oldest go (they are on `client.events` too).
    private static let keptLimit = 1_000
    private let state = Locked(State())

    /// A controller is about to create a view: keep unclaimed view events until it attaches.
    func beginCreating() { state.withLock { $0.creating += 1 } }

    /// The view was created: from now on its events go to `target`; returns those that came first.
    func attach(view: String, target: @escaping Target) -> [PaywireEvent] {
        state.withLock { state in
            state.targets[view] = target
            state.creating = max(0, state.creating - 1)
            let mine = state.kept.filter { $0.view == view }.map(\.event)
            let noneCreating = state.creating == 0
            state.kept.removeAll { $0.view == view || noneCreating }
            return mine
        }
    }

    /// The view could not be created.
    func endCreating() {
        state.withLock { state in
            state.creating = max(0, state.creating - 1)
            if state.creating == 0 { state.kept = [] }
        }
    }

    /// The controller is gone or its view dismissed for good.
    func detach(view: String) { _ = state.withLock { $0.targets.removeValue(forKey: view) } }

    /// Where an event of `view` goes now; nil when no controller holds it (kept, if one may).
    func target(for view: String, event: PaywireEvent) -> Target? {
        state.withLock { state in
            if let target = state.targets[view] { return target }
            if state.creating > 0 {
                state.kept.append((view, event))
                if state.kept.count > ViewRoutes.keptLimit { state.kept.removeFirst() }
            }
            return nil
        }
    }
}
