import Hummingbird
import HTTPTypes

/// The router and the table of its routes: every route added here is also what a `405` knows.
struct ServerRoutes {
    let router: Router<ServerContext>
    let table: RouteTable

    func add(_ method: HTTPRequest.Method, _ path: String,
             _ handler: @escaping @Sendable (Request, ServerContext) async throws -> Response) {
        table.add(method, path)
        router.on(RouterPath(path), method: method, use: handler)
    }
}
