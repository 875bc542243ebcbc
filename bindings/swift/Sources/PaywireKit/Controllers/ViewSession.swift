/// One view of the core (a paywall's or an onboarding's) as a controller drives it: creating it,
/// sending the app's actions for it in the order the app made them, and knowing when the
/// delegate calls an action caused have been made.
@MainActor
final class ViewSession {
    let core: ClientCore
    /// The view, once created.
    private(set) var view: ViewInfo?
    private var failure: PaywireError?
    private var settled = false
    /// Calls made before the view existed, in the order they were made: sent, in that order, as
    /// soon as it does (resumed tasks need not run in the order they were resumed).
    private var waiting: [(method: String, params: (String) -> JSONValue, ticket: CheckedContinuation<CallTicket?, Never>)] = []

    init(core: ClientCore) { self.core = core }

    isolated deinit {
        // The controller is gone: its view's events go nowhere now.
        if let view { core.routes.detach(view: view.id) }
    }

    /// Starts creating the view (`method`); `target` hears its events, `failed` the error when the
    /// core could not create it.
    func start(_ method: String, _ params: JSONValue, target: @escaping ViewRoutes.Target,
               failed: @escaping @MainActor (PaywireError) -> Void)
    {
        Task {
            if let failure = await create(method, params, target: target) { failed(failure) }
        }
    }

    /// Creates the view with `method`; from then on `target` hears its events, those the core
    /// sent before the view's id was known first. Returns the error when it could not be created.
    func create(_ method: String, _ params: JSONValue, target: @escaping ViewRoutes.Target) async -> PaywireError? {
        core.routes.beginCreating()
        let outcome = await core.submit(method, params).outcome
        var early: [PaywireEvent] = []
        switch outcome {
        case .success(let json):
            if let created = try? ViewInfo(json: json) {
                view = created
                early = core.routes.attach(view: created.id, target: target)
            } else {
                core.routes.endCreating()
                failure = .binding(.decodingFailed, "\(method) answered no view: \(json.jsonText.prefix(200))")
            }
        case .failure(let error):
            core.routes.endCreating()
            failure = error
        }
        settled = true
        let queued = waiting
        waiting = []
        for event in early { target(event) }
        for call in queued { call.ticket.resume(returning: view.map { core.submit(call.method, call.params($0.id)) }) }
        return failure
    }

    /// The call's ticket: sent now when the view exists, else once it does (nil if it never will).
    private func ticket(_ method: String, _ params: @escaping (String) -> JSONValue) async -> CallTicket? {
        if settled { return view.map { core.submit(method, params($0.id)) } }
        return await withCheckedContinuation { waiting.append((method, params, $0)) }
    }

    /// Sends an action of the view (`method`, with the params made from the view's id). Returns
    /// once the core answered it and every delegate call of the events the core sent before that
    /// answer has been made; the error when the action was refused (or the view never existed).
    /// Actions reach the core in the order they were sent, also while the view is being created.
    func send(_ method: String, _ params: @escaping (String) -> JSONValue) async -> PaywireError? {
        guard let ticket = await ticket(method, params) else { return failure ?? .binding(.invalidState, "the view was not created") }
        let outcome = await ticket.outcome
        await MainDelivery.barrier()
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// Sends a call and returns its result (for a getter of the view, such as its layout).
    func fetch(_ method: String, _ params: @escaping (String) -> JSONValue) async throws(PaywireError) -> JSONValue {
        guard let ticket = await ticket(method, params) else { throw failure ?? .binding(.invalidState, "the view was not created") }
        return try await ticket.value()
    }

    /// Answers a host request of the view.
    func respond(to requestId: String, with answer: HostRequests.Answer) {
        HostRequests.respond(core, to: requestId, with: answer)
    }
}
