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
            switch try await doors.check(door, request) {
            case .refused(let response):
                return response
            case .open(let viewer):
                var context = context
                context.viewer = viewer
                return try await handler(request, context)
            }
        }
    }
}
