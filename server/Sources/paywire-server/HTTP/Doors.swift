import Hummingbird
import PaywireModel

/// Who may open a route. Every route names one (`ServerRoutes.add` will not take a route
/// without), `--list-routes` prints it, and a test holds each to the spec's security.
enum Door: Sendable, Equatable {
    /// Anyone: the route says nothing about anyone (health, readiness, metrics).
    case anyone
    /// The app's key: public, in every copy of the app. Without app keys configured, open.
    case app
    /// An operator key holding this scope: secret, staff's.
    case `operator`(OperatorScope)
    /// The store's own proof, inside the request, which the operation checks: the App Store's
    /// signed payload, Stripe's `Stripe-Signature`.
    case storeSignature
    /// Google's Pub/Sub push token where the server checks them (`--play-push-jwks`), else an
    /// operator key with `notifications:write`.
    case playPush

    /// Its name in `--list-routes` and in the spec's test.
    var name: String {
        switch self {
        case .anyone: return "anyone"
        case .app: return "app"
        case .operator(let scope): return "operator:\(scope.rawValue)"
        case .storeSignature: return "store-signature"
        case .playPush: return "play-push"
        }
    }
}

/// The keys a door is checked with, and the check: nil lets the request through; else the
/// refusal, `401` for a request with no credential this route takes (or one of another kind),
/// `403` for an operator key without the route's scope. No credential is ever echoed or logged.
struct DoorKeeper: Sendable {
    let appKeys: APIKeys
    let operatorKeys: OperatorKeys
    /// Checks Play pushes' OIDC tokens; nil: that route takes an operator key instead.
    let pushTokens: PushKeyFile?
    let clock: any ServerClock

    func refusal(_ door: Door, _ request: Request) -> Response? {
        let authorization = request.headers[.authorization]
        switch door {
        case .anyone, .storeSignature:
            return nil
        case .app:
            guard appKeys.isRequired, !appKeys.accepts(authorization) else { return nil }
            return Self.unauthorized("this route takes the app's key: 'authorization: Api-Key <key>'")
        case .operator(let scope):
            return operatorRefusal(scope, authorization)
        case .playPush:
            guard let pushTokens else { return operatorRefusal(.notificationsWrite, authorization) }
            guard let why = pushTokens.refusal(authorization: authorization, now: clock.nowSeconds()) else { return nil }
            ServerMetrics.notification(source: .playStore, outcome: "unauthorized")
            return Self.unauthorized(why)
        }
    }

    private func operatorRefusal(_ scope: OperatorScope, _ authorization: String?) -> Response? {
        guard let key = operatorKeys.key(authorization) else {
            return Self.unauthorized("this route takes an operator key with the scope '\(scope.rawValue)': 'authorization: Bearer <key>' (an app key opens device routes only)")
        }
        guard key.scopes.contains(scope) else {
            return ErrorBody.response(.forbidden, code: "insufficient_scope",
                                      "operator key '\(key.id)' does not hold the scope '\(scope.rawValue)' this route needs")
        }
        return nil
    }

    private static func unauthorized(_ message: String) -> Response {
        ErrorBody.response(.unauthorized, code: "unauthorized", message)
    }
}
