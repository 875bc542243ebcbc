import Hummingbird
import Logging

/// Every request measured and logged: its route (the template, never the path, which may name
/// a profile), method, status and time, into the metrics; a log line at debug level, at error
/// for a 5xx. Headers and bodies are never logged: no key, no authorization, no record.
struct Observe: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var status = "500"
        defer {
            let elapsed = ContinuousClock.now - started
            let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
            let route = context.endpointPath ?? "unmatched"
            ServerMetrics.request(route: route, method: request.method.rawValue, status: status, nanoseconds: nanoseconds)
            context.logger.log(level: status.hasPrefix("5") ? .error : .debug, "request", metadata: [
                "method": .string(request.method.rawValue), "route": .string(route), "status": .string(status),
                "duration_ms": .stringConvertible(Double(nanoseconds) / 1_000_000),
            ])
        }
        do {
            let response = try await next(request, context)
            status = String(response.status.code)
            return response
        } catch is CloseWithoutResponse {
            status = "no_response"
            throw CloseWithoutResponse()
        }
    }
}
