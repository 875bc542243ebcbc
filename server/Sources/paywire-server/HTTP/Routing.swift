import Hummingbird
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import OpenAPIHummingbird
import OpenAPIRuntime

/// Every route the server answers (the generated API's and its own), by method and path
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

/// Registers the generated operations on the router and notes each route in the table.
struct RecordingTransport: ServerTransport {
    let router: Router<ServerContext>
    let table: RouteTable

    func register(_ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
                  method: HTTPRequest.Method, path: String) throws {
        table.add(method, path)
        router.register(handler, method: method, path: path)
    }
}

/// Answers what no operation answered in the API's error shape: an unknown path `404`, a known
/// path with another method `405` with `Allow`, a request the generated server could not read
/// into the operation's input `400 invalid_request` (saying what did not match the spec), and a
/// failure inside an operation `500` (logged, never shown).
struct APIErrors: RouterMiddleware {
    typealias Context = ServerContext
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServerError {
            if error.underlyingError is CloseWithoutResponse { throw CloseWithoutResponse() }
            guard error.operationInput == nil else {
                context.logger.error("operation failed", metadata: ["operation": "\(error.operationID)", "error": "\(error.underlyingError)"])
                return ErrorBody.response(.internalServerError, code: "internal", "the server failed; its log says why")
            }
            return ErrorBody.response(.badRequest, code: "invalid_request", Self.describe(error))
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = routes.methods(for: request.uri.path)
            guard allowed.isEmpty else {
                return ErrorBody.response(.methodNotAllowed, code: "method_not_allowed", "this resource takes \(allowed.joined(separator: ", "))",
                                          headers: [.allow: allowed.joined(separator: ", ")])
            }
            return ErrorBody.response(.notFound, code: "not_found", "no such resource: \(request.uri.path)")
        }
    }

    /// What did not match the spec, for people: the member's path and the decoder's reason.
    static func describe(_ error: ServerError) -> String {
        if let decoding = error.underlyingError as? DecodingError {
            switch decoding {
            case .keyNotFound(let key, let context):
                return "\(path(context.codingPath + [key])) is required"
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                let at = path(context.codingPath)
                return at.isEmpty ? "the body is not what the spec describes: \(context.debugDescription)"
                    : "\(at) is not what the spec describes: \(context.debugDescription)"
            @unknown default:
                return "the body is not what the spec describes"
            }
        }
        return error.causeDescription
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
    }
}
