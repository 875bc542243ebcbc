import FlyingFox
import Foundation
// Scoped: FlyingFox has a JSONValue of its own.
import enum PaywireWire.JSONValue

/// Responses the server gives: JSON bodies, and errors as
/// `{"error": {"code": ..., "message": ..., ...}}` (the contract's shape on every route).
enum Reply {
    static func json(_ value: JSONValue, status: Int = 200, headers: [(String, String)] = []) -> HTTPResponse {
        json(bytes: value.encoded, status: status, headers: headers)
    }

    static func json(bytes: [UInt8], status: Int = 200, headers: [(String, String)] = []) -> HTTPResponse {
        var all: HTTPHeaders = [.contentType: "application/json"]
        for (name, value) in headers { all[HTTPHeader(name)] = value }
        return HTTPResponse(statusCode: statusCode(status), headers: all, body: Data(bytes))
    }

    static func error(_ status: Int, code: String, _ message: String, extra: [(String, JSONValue)] = [],
                      headers: [(String, String)] = []) -> HTTPResponse {
        let error = JSONValue.object([("code", .string(code)), ("message", .string(message))] + extra)
        return json(.object([("error", error)]), status: status, headers: headers)
    }

    /// `405` with the `Allow` header naming what the resource takes.
    static func methodNotAllowed(_ allowed: [String]) -> HTTPResponse {
        error(405, code: "method_not_allowed", "this resource takes \(allowed.joined(separator: ", "))",
              headers: [("Allow", allowed.joined(separator: ", "))])
    }

    static func html(_ page: String) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: [.contentType: "text/html; charset=utf-8", HTTPHeader("Cache-Control"): "no-store"],
                     body: Data(page.utf8))
    }

    static func statusCode(_ status: Int) -> HTTPStatusCode {
        let phrases = [200: "OK", 304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
                       405: "Method Not Allowed", 413: "Content Too Large", 422: "Unprocessable Content", 429: "Too Many Requests",
                       431: "Request Header Fields Too Large", 500: "Internal Server Error", 502: "Bad Gateway",
                       503: "Service Unavailable", 504: "Gateway Timeout"]
        return HTTPStatusCode(status, phrase: phrases[status] ?? "Error")
    }
}
