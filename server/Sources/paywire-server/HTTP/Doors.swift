import Foundation
import Hummingbird
import PaywireModel
import ServerDomain
import ServerStore

/// Who may open a route. Every route names one (`ServerRoutes.add` will not take a route
/// without), `--list-routes` prints it, and a test holds each to the spec's security.
enum Door: Sendable, Equatable {
    /// Anyone: the route says nothing about anyone (health, readiness, metrics).
    case anyone
    /// The app's key: public, in every copy of the app. Without app keys configured, open.
    case app
    /// An operator key holding this scope: secret, staff's.
    case `operator`(OperatorScope)
    /// A dashboard page: an operator's browser session (the sign-in's cookie) or an operator
    /// key, holding this scope. A browser with neither is sent to the sign-in page.
    case operatorPage(OperatorScope)
    /// The store's own proof, inside the request, which the operation checks: the App Store's
    /// signed payload, Stripe's `Stripe-Signature`.
    case storeSignature
    /// A web paywall's visitor: a browser, whose profile the route finds in its own cookie
    /// (`WebVisitor`). No key: the page is public, rate-limited per client address.
    case visitor
    /// Google's Pub/Sub push token where the server checks them (`--play-push-jwks`), else an
    /// operator key with `notifications:write`.
    case playPush

    /// Whether the door takes an operator key in `authorization` (Play's push route does where
    /// it checks no Pub/Sub token; a wrong token counts the same there).
    var takesOperatorKey: Bool {
        switch self {
        case .operator, .operatorPage, .playPush: return true
        case .anyone, .app, .storeSignature, .visitor: return false
        }
    }

    /// The operator scope the door asks for, if it asks for one (what the audit keeps).
    var operatorScope: OperatorScope? {
        switch self {
        case .operator(let scope), .operatorPage(let scope): return scope
        case .anyone, .app, .storeSignature, .visitor, .playPush: return nil
        }
    }

    /// Its name in `--list-routes` and in the spec's test.
    var name: String {
        switch self {
        case .anyone: return "anyone"
        case .app: return "app"
        case .operator(let scope): return "operator:\(scope.rawValue)"
        case .operatorPage(let scope): return "operator-page:\(scope.rawValue)"
        case .storeSignature: return "store-signature"
        case .playPush: return "play-push"
        case .visitor: return "web-visitor"
        }
    }
}

/// Who came through an operator door: the key's id, and for a browser session the CSRF token
/// its forms carry.
struct Viewer: Sendable, Equatable {
    let keyId: String
    /// Derived from the session's token; nil for a request with an operator key (no forms).
    let csrf: String?
}

/// The keys a door is checked with, and the check: the door opens (naming the operator who came
/// through, on an operator door) or the request is refused: `401` for no credential this route
/// takes (or one of another kind), `403` for an operator key without the route's scope, a
/// redirect to the sign-in page for a browser without a session. No credential is ever echoed
/// or logged.
struct DoorKeeper: Sendable {
    enum Outcome: Sendable {
        case open(Viewer?)
        case refused(Response)
    }

    let appKeys: APIKeys
    let operatorKeys: OperatorKeys
    /// Checks Play pushes' OIDC tokens; nil: that route takes an operator key instead.
    let pushTokens: PushKeyFile?
    /// Where browser sessions are kept (nil: none, as in the doors' unit tests).
    let sessions: (any Storage)?
    let clock: any ServerClock
    /// Wrong operator keys per client address, the sign-in form's among them.
    var guesses = KeyGuesses()

    /// Checks `door` for a request from `address`. On a door that takes an operator key, an
    /// address that sent too many wrong ones waits (`429` with `Retry-After`) before any key
    /// it sends is looked at, and each wrong key it sends counts.
    func check(_ door: Door, _ request: Request, from address: String) async throws -> Outcome {
        let presentsKey = door.takesOperatorKey && request.headers[.authorization] != nil
        if presentsKey, case .wait(let seconds) = guesses.admits(address, now: clock.nowMilliseconds()) {
            var response = ErrorBody.response(.tooManyRequests, code: "rate_limited",
                                              "too many wrong operator keys from this address: retry in \(seconds) s")
            response.headers[.retryAfter] = String(seconds)
            return .refused(response)
        }
        let outcome = try await check(door, request)
        if presentsKey, case .refused(let response) = outcome, response.status == .unauthorized {
            guesses.failed(address, now: clock.nowMilliseconds())
        }
        return outcome
    }

    private func check(_ door: Door, _ request: Request) async throws -> Outcome {
        if case .operatorPage(let scope) = door {
            return try await pageCheck(scope, request)
        }
        if let response = refusal(door, request) { return .refused(response) }
        if case .operator = door, let key = operatorKeys.key(request.headers[.authorization]) {
            return .open(Viewer(keyId: key.id, csrf: nil))
        }
        return .open(nil)
    }

    /// The refusal of a door that needs no session; nil opens it.
    func refusal(_ door: Door, _ request: Request) -> Response? {
        let authorization = request.headers[.authorization]
        switch door {
        case .anyone, .storeSignature, .visitor:
            return nil
        case .operatorPage(let scope):
            return operatorRefusal(scope, authorization)
        case .app:
            guard appKeys.isRequired else { return nil }
            return Self.appKeyRefusal(appKeys.presented(authorization), authorization)
        case .operator(let scope):
            return operatorRefusal(scope, authorization)
        case .playPush:
            guard let pushTokens else { return operatorRefusal(.notificationsWrite, authorization) }
            guard let why = pushTokens.refusal(authorization: authorization, now: clock.nowSeconds()) else { return nil }
            ServerMetrics.notification(source: .playStore, outcome: "unauthorized")
            return Self.unauthorized(why)
        }
    }

    /// A page: an operator key when the request carries an authorization (tools, curl), else
    /// the browser's session, else the way to the sign-in page.
    private func pageCheck(_ scope: OperatorScope, _ request: Request) async throws -> Outcome {
        if request.headers[.authorization] != nil {
            if let response = operatorRefusal(scope, request.headers[.authorization]) { return .refused(response) }
            return .open(operatorKeys.key(request.headers[.authorization]).map { Viewer(keyId: $0.id, csrf: nil) })
        }
        guard let token = SessionCookies.value(SessionCookies.session, in: request.headers[.cookie]),
              let digest = SecretToken.digest(ofToken: token), let sessions,
              let session = try await sessions.session(digest: digest, now: clock.nowMilliseconds()),
              let key = operatorKeys.key(id: session.keyId), session.isBound(toKeyDigest: key.digest) else {
            return .refused(Self.toSignIn(request.uri.path))
        }
        guard key.scopes.contains(scope) else { return .refused(Self.insufficientScope(key, scope)) }
        return .open(Viewer(keyId: key.id, csrf: SecretToken.derived(token, "csrf")))
    }

    /// `303` to the sign-in page, which comes back to `path` after.
    static func toSignIn(_ path: String) -> Response {
        let next = SessionCookies.destination(path)
        let pathCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")
        let query = next == "/dashboard" ? "" : "?next=" + (next.addingPercentEncoding(withAllowedCharacters: pathCharacters) ?? "")
        return Response(status: .seeOther, headers: [.location: "/dashboard/login" + query, .cacheControl: "no-store"])
    }

    private static func insufficientScope(_ key: OperatorKey, _ scope: OperatorScope) -> Response {
        ErrorBody.response(.forbidden, code: "insufficient_scope",
                           "operator key '\(key.id)' does not hold the scope '\(scope.rawValue)' this route needs")
    }

    private func operatorRefusal(_ scope: OperatorScope, _ authorization: String?) -> Response? {
        guard let key = operatorKeys.key(authorization) else {
            return Self.unauthorized("this route takes an operator key with the scope '\(scope.rawValue)': 'authorization: Bearer <key>' (an app key opens device routes only)")
        }
        guard key.scopes.contains(scope) else { return Self.insufficientScope(key, scope) }
        return nil
    }

    /// A device route's refusal, naming the fix: a key the server does not accept is told apart
    /// (`invalid_app_key`, by its digest's first digits) from no key at all (`unauthorized`).
    static func appKeyRefusal(_ presented: APIKeys.Presented, _ authorization: String?) -> Response? {
        switch presented {
        case .accepted:
            return nil
        case .refused(let prefix):
            return ErrorBody.response(.unauthorized, code: "invalid_app_key",
                                      "this server accepts no app key whose SHA-256 starts \(prefix): the app's api_key is not one of the server's --app-key-sha256 digests (printf %s \"$KEY\" | sha256sum gives a key's)")
        case .missing:
            let sent = authorization.map { $0.hasPrefix("Bearer ") ? " (an 'authorization: Bearer' key is an operator's, for operator routes)" : " (the authorization sent is not of that form)" } ?? " (none was sent)"
            return unauthorized("this route takes the app's key: 'authorization: Api-Key <key>'" + sent)
        }
    }

    private static func unauthorized(_ message: String) -> Response {
        ErrorBody.response(.unauthorized, code: "unauthorized", message)
    }
}
