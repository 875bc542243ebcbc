import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PaywireModel
import PaywireWire

/// What an API route is given, read once at the edge: the body's exact bytes and, when they are
/// JSON, the value they hold (parsed here and nowhere else: the profile door and the operation
/// read the same value), the path's parameters (percent-decoded), the query and the headers.
/// Each operation takes the parts it needs as parameters; nothing reaches it any other way.
struct RouteInput: Sendable {
    let body: [UInt8]
    /// The body's JSON value; nil when the body is empty or no JSON (each operation says what
    /// it wanted instead).
    let parsed: JSONValue?
    let headers: HTTPFields
    let query: [String: String]
    /// The client's address (the connection's peer): what per-address limits count by.
    let clientAddress: String
    /// The operator who came through the route's door (an operator door only).
    let viewer: Viewer?
    /// The request's path as sent (what a signed answer names) and its authority (`Host`).
    let requestPath: String
    let authority: String?
    /// The request's logger: Hummingbird's, which carries the request's id.
    let logger: Logger
    private let parameters: [String: String]

    /// Why a request cannot reach its operation (`400 invalid_request`).
    struct Problem: Error {
        let message: String
    }

    init(body: [UInt8], parsed: JSONValue?, headers: HTTPFields = [:], query: [String: String] = [:], clientAddress: String = "",
         parameters: [String: String] = [:], viewer: Viewer? = nil, requestPath: String = "", authority: String? = nil, logger: Logger) {
        self.body = body
        self.parsed = parsed
        self.headers = headers
        self.query = query
        self.clientAddress = clientAddress
        self.parameters = parameters
        self.viewer = viewer
        self.requestPath = requestPath
        self.authority = authority
        self.logger = logger
    }

    /// Reads the request: the body up to `limit` bytes (the head check enforces it already; nil:
    /// the route takes no body, and none is read), parsed once, and the path's named parameters.
    /// A body holding U+0000 in a string is refused: PostgreSQL's text cannot hold it, so both
    /// engines refuse it alike, and no client has a reason to send one.
    static func read(_ request: Request, _ context: ServerContext, parameterNames: [String], limit: Int?) async throws -> RouteInput {
        var body: [UInt8] = []
        if let limit { body = Array(try await request.body.collect(upTo: limit).readableBytesView) }
        let parsed = body.isEmpty ? nil : try? JSONValue(parsing: body)
        if let parsed, RecordRules.holdsNUL(parsed) {
            throw Problem(message: "a string of the body holds U+0000, which this server does not store")
        }
        var parameters: [String: String] = [:]
        for name in parameterNames {
            guard let raw = context.parameters.get(name), let decoded = URLComponent.decoded(raw[...]), !decoded.isEmpty else {
                throw Problem(message: "\(name) must be a non-empty path segment")
            }
            parameters[name] = decoded
        }
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { query[String(key)] = String(value) }
        return RouteInput(body: body, parsed: parsed, headers: request.headers, query: query, clientAddress: context.clientAddress,
                          parameters: parameters, viewer: context.viewer, requestPath: request.uri.path, authority: request.head.authority,
                          logger: context.logger)
    }

    /// A path parameter the route names (read is sure it is there).
    func path(_ name: String) -> String { parameters[name] ?? "" }

    /// The path's parameter names of a route's template, in order (`{profile_id}` gives
    /// `profile_id`).
    static func parameterNames(_ path: String) -> [String] {
        path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
    }

    func header(_ name: String) -> String? {
        guard let field = HTTPField.Name(name) else { return nil }
        return headers[field]
    }

    /// A header the operation requires, not empty.
    func requiredHeader(_ name: String) throws(Problem) -> String {
        guard let value = header(name), !value.isEmpty else { throw Problem(message: "\(name) is required and must not be empty") }
        return value
    }
}
