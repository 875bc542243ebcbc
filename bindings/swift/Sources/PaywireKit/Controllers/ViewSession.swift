import Foundation

/// One view of the core (a paywall's or an onboarding's) as a controller drives it: creating it,
/// sending the app's inputs for it, and turning what each input caused into delegate calls
/// before the input returns.
///
/// Every input is synchronous on the main actor: the core takes a view's input at once
/// (`paywire_client_call`), the main thread then waits, with a deadline, until the pump has
/// routed every event the core emitted up to that answer into this view's ``ViewInbox``, and the
/// inbox is drained into delegate calls (then the client's ``PaywireDelegate`` hears the profile
/// the input brought, if any). Later events (a store's answer, a timer, a test store's
/// `delay_ms`) go through the same inbox, drained on the main queue as they come, so the
/// delegate hears everything once, in the order of the core's events.
@MainActor
final class ViewSession {
    /// The longest an input waits for the pump to route what the core emitted while taking it.
    /// The pump needs nothing from the main thread and the marker call is cheap, so this is only
    /// reached when the library's worker is held up; the input then returns with what came, and
    /// the rest reaches the delegate as later events do.
    static let routingDeadline: TimeInterval = 2

    let core: ClientCore
    let inbox = ViewInbox()
    /// The view, once created.
    private(set) var view: ViewInfo?
    /// Why there is no view.
    private var failure: PaywireError?

    init(core: ClientCore) { self.core = core }

    isolated deinit {
        // The controller is gone: its view's events go nowhere now.
        if let view { core.routes.detach(view: view.id) }
    }

    /// Creates the view with `method`, at once; from then on `target` hears its events (those the
    /// pump routed before the view's id was known first). When the core could not create it,
    /// `failed` hears why: queued in the inbox, so the delegate hears it after the caller has
    /// the controller and before any input's own report.
    func create(_ method: String, _ params: JSONValue, target: @escaping ViewInbox.Target,
                failed: @escaping @MainActor @Sendable (PaywireError) -> Void)
    {
        inbox.deliver(to: target)
        core.routes.beginCreating()
        switch core.callNow(method, params) {
        case .success(let json):
            if let created = try? ViewInfo(json: json) {
                view = created
                core.routes.attach(view: created.id, inbox: inbox)
                return
            }
            failure = .binding(.decodingFailed, "\(method) answered no view: \(json.jsonText.prefix(200))")
        case .failure(let error):
            failure = error
        }
        core.routes.endCreating()
        if let failure { inbox.post { failed(failure) } }
    }

    /// Gives the view an input (`method`, with the params made from the view's id) and returns
    /// the core's answer once every delegate call of the events the core emitted up to that
    /// answer has been made (see the type's comment). Without a view: the reason, after the
    /// delegate heard it.
    @discardableResult
    func send(_ method: String, _ params: (String) -> JSONValue) -> CallTicket.Outcome {
        guard let view else {
            inbox.drain()
            return .failure(failure ?? .binding(.invalidState, "the view was not created"))
        }
        let outcome = core.callNow(method, params(view.id))
        core.waitUntilRouted(timeout: Self.routingDeadline)
        inbox.drain()
        core.deliverLatestProfile()
        return outcome
    }

    /// Asks the view something that emits no event (its layout): the core's answer.
    func fetch(_ method: String, _ params: (String) -> JSONValue) throws(PaywireError) -> JSONValue {
        guard let view else { throw failure ?? .binding(.invalidState, "the view was not created") }
        return try core.callNow(method, params(view.id)).get()
    }

    /// Answers a host request of the view.
    func respond(to requestId: String, with answer: HostRequests.Answer) {
        HostRequests.respond(core, to: requestId, with: answer)
    }
}
