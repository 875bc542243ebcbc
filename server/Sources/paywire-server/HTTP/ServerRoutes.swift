import Hummingbird
import HTTPTypes

/// The router and the table of its routes: every route added here names its door, is checked
/// at it before its handler runs, and is what a `405` knows.
struct ServerRoutes {
    let router: Router<ServerContext>
    let table: RouteTable
    let doors: DoorKeeper

    func add(_ method: HTTPRequest.Method, _ path: String, door: Door,
             _ handler: @escaping @Sendable (Request, ServerContext) async throws -> Response) {
        table.add(method, path)
        let doors = self.doors
        router.on(RouterPath(path), method: method) { request, context in
            if let refusal = doors.refusal(door, request) { return refusal }
            return try await handler(request, context)
        }
    }
}
