import Hummingbird
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServerStore

/// Every route the server answers (the API's and its own), by method and path
/// template: what a `405` lists in `Allow` when a path is known but the method is not.
final class RouteTable: Sendable {
    private let routes = NIOLockedValueBox<[(method: HTTPRequest.Method, segments: [Substring])]>([])

    func add(_ method: HTTPRequest.Method, _ path: String) {
        routes.withLockedValue { $0.append((method, path.split(separator: "/"))) }
    }

    /// The methods of every route whose template matches `path` (`{name}` matches one segment).
    func methods(for path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        return routes.withLockedValue { routes in
            routes.filter { route in
                route.segments.count == segments.count && zip(route.segments, segments).allSatisfy { template, given in
                    (template.hasPrefix("{") && !given.isEmpty) || template == given
                }
            }.map(\.method.rawValue)
        }
    }
}

/// Answers what no operation answered in the API's error shape: an unknown path `404`, a known
/// path with another method `405` with `Allow`, a body over the limit `413`, and a failure
/// inside an operation `500` (logged, never shown).
struct APIErrors: RouterMiddleware {
    typealias Context = ServerContext
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch is CloseWithoutResponse {
            throw CloseWithoutResponse()
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = routes.methods(for: request.uri.path)
            guard allowed.isEmpty else {
                return ErrorBody.response(.methodNotAllowed, code: "method_not_allowed", "this resource takes \(allowed.joined(separator: ", "))",
                                          headers: [.allow: allowed.joined(separator: ", ")])
            }
            return ErrorBody.response(.notFound, code: "not_found", "no such resource: \(request.uri.path)")
        } catch let error as HTTPError where error.status == .contentTooLarge {
            return ErrorBody.response(.contentTooLarge, code: "payload_too_large", "the body is larger than this server takes")
        } catch let error as NIOTooManyBytesError {
            // A route that reads its body with a limit of its own (a form) met a larger one.
            let limit = error.maxBytes.map { "the \($0) bytes" } ?? "what"
            return ErrorBody.response(.contentTooLarge, code: "payload_too_large", "the body is larger than \(limit) this route takes")
        } catch let error as HTTPError {
            throw error
        } catch {
            context.logger.error("operation failed", metadata: ["route": "\(context.endpointPath ?? request.uri.path)",
                                                                "error": "\(StorageProblem.describe(error))"])
            return ErrorBody.response(.internalServerError, code: "internal", "the server failed; its log says why")
        }
    }
}
