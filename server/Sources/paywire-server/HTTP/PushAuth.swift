import Foundation
import Hummingbird
import PaywireModel

/// `401` for a Google Play notification push whose OIDC token does not check out, when the
/// server was given a key set (`--play-push-jwks`). Pub/Sub push cannot send an API key, so
/// with a key set the token replaces the key on this one route (`RequireAPIKey` exempts it);
/// without one, the route takes the API key like every other /v1 route. The token is never
/// echoed or logged. A key Google rotated in is taken once the file holds it (`PushKeyFile`).
struct RequirePushToken: RouterMiddleware {
    typealias Context = ServerContext
    static let path = "/v1/notifications/play"
    let verifier: PushKeyFile
    let clock: any ServerClock

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // By the route as well as the path: another spelling the router takes is checked too.
        guard request.uri.path == Self.path || context.endpointPath == Self.path else { return try await next(request, context) }
        if let why = verifier.refusal(authorization: request.headers[.authorization], now: clock.nowSeconds()) {
            ServerMetrics.notification(source: .playStore, outcome: "unauthorized")
            return ErrorBody.response(.unauthorized, code: "unauthorized", why)
        }
        return try await next(request, context)
    }
}
