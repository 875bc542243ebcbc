import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PaywireModel
import PaywireWire

/// What an API route is given, read once at the edge: the body's exact bytes, the path's
/// parameters (percent-decoded), the query and the headers. Each operation takes the parts it
/// needs as parameters; nothing reaches it any other way.
struct RouteInput: Sendable {
    let body: [UInt8]
    let headers: HTTPFields
    let query: [String: String]
    /// The client's address (the connection's peer): what per-address limits count by.
    let clientAddress: String
    private let parameters: [String: String]

    /// Why a request cannot reach its operation (`400 invalid_request`).
    struct Problem: Error {
        let message: String
    }

    /// Reads the request: the body up to `limit` bytes (the head check enforces it already), the
    /// path's named parameters. A body holding U+0000 in a string is refused: PostgreSQL's text
    /// cannot hold it, so both engines refuse it alike, and no client has a reason to send one.
    static func read(_ request: Request, _ context: ServerContext, parameterNames: [String], limit: Int) async throws -> RouteInput {
        let buffer = try await request.body.collect(upTo: limit)
        let body = Array(buffer.readableBytesView)
        if RouteInput.holdsNUL(body) { throw Problem(message: "a string of the body holds U+0000, which this server does not store") }
        var parameters: [String: String] = [:]
        for name in parameterNames {
            guard let raw = context.parameters.get(name), let decoded = URLComponent.decoded(raw[...]), !decoded.isEmpty else {
                throw Problem(message: "\(name) must be a non-empty path segment")
            }
            parameters[name] = decoded
        }
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { query[String(key)] = String(value) }
        return RouteInput(body: body, headers: request.headers, query: query, clientAddress: context.clientAddress, parameters: parameters)
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

    /// Whether a JSON string of the body holds U+0000 (only parsed when its escape appears).
    static func holdsNUL(_ bytes: [UInt8]) -> Bool {
        let escape = Array("\\u0000".utf8)
        guard bytes.count >= escape.count else { return false }
        var mayHold = false
        for start in 0...(bytes.count - escape.count) where bytes[start] == escape[0] {
            if (1..<escape.count).allSatisfy({ bytes[start + $0] == escape[$0] }) {
                mayHold = true
                break
            }
        }
        guard mayHold, let document = try? JSONValue(parsing: bytes) else { return false }
        return RecordRules.holdsNUL(document)
    }
}
