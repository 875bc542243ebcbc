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
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(core: ClientCore) { self.core = core }

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
        let resumed = waiting
        waiting = []
        for event in early { target(event) }
        for continuation in resumed { continuation.resume() }
        return failure
    }

    /// Sends an action of the view (`method`, with the params made from the view's id). Returns
    /// once the core answered it and every delegate call of the events the core sent before that
    /// answer has been made; the error when the action was refused (or the view never existed).
    /// Actions reach the core in the order they were sent, also while the view is being created.
    func send(_ method: String, _ params: (String) -> JSONValue) async -> PaywireError? {
        if !settled { await withCheckedContinuation { waiting.append($0) } }
        guard let view else { return failure ?? .binding(.invalidState, "the view was not created") }
        let ticket = core.submit(method, params(view.id))
        let outcome = await ticket.outcome
        await MainDelivery.barrier()
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// Sends a call and returns its result (for a getter of the view, such as its layout).
    func fetch(_ method: String, _ params: (String) -> JSONValue) async throws(PaywireError) -> JSONValue {
        if !settled { await withCheckedContinuation { waiting.append($0) } }
        guard let view else { throw failure ?? .binding(.invalidState, "the view was not created") }
        return try await core.submit(method, params(view.id)).value()
    }

    /// Answers a host request of the view.
    func respond(to requestId: String, with answer: HostRequests.Answer) {
        HostRequests.respond(core, to: requestId, with: answer)
    }

    /// The controller is gone: its view's events go nowhere now.
    nonisolated static func detach(_ core: ClientCore, view: String?) {
        if let view { core.routes.detach(view: view) }
    }
}
