import Foundation
import HTTPTypes
import Hummingbird
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
    private let parameters: [String: String]

    /// Why a request cannot reach its operation (`400 invalid_request`).
    struct Problem: Error {
        let message: String
    }

    init(body: [UInt8], parsed: JSONValue?, headers: HTTPFields = [:], query: [String: String] = [:], clientAddress: String = "",
         parameters: [String: String] = [:]) {
        self.body = body
        self.parsed = parsed
        self.headers = headers
        self.query = query
        self.clientAddress = clientAddress
        self.parameters = parameters
    }

    /// Reads the request: the body up to `limit` bytes (the head check enforces it already),
    /// parsed once, and the path's named parameters. A body holding U+0000 in a string is
    /// refused: PostgreSQL's text cannot hold it, so both engines refuse it alike, and no client
    /// has a reason to send one.
    static func read(_ request: Request, _ context: ServerContext, parameterNames: [String], limit: Int) async throws -> RouteInput {
        let buffer = try await request.body.collect(upTo: limit)
        let body = Array(buffer.readableBytesView)
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
                          parameters: parameters)
    }

    /// A path parameter the route names (read is sure it is there).
    func path(_ name: String) -> String { parameters[name] ?? "" }

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
