import HTTPTypes
import OpenAPIRuntime
import PaywireWire

/// The request body's bytes as they came, for the parts of an operation that need its exact
/// text: numbers as written (prices), members the spec does not name (kept in stored records),
/// records named one by one in a refusal. The generated server decodes the typed input from
/// the same bytes; `RawBody.middleware` collects them once and hands both on. A body with a
/// string holding U+0000 is refused here (`400`): PostgreSQL's text cannot hold it, so both
/// engines refuse it alike, and no client has a reason to send one.
enum RawBody {
    @TaskLocal static var current: [UInt8] = []

    /// An OpenAPI middleware that collects the body (at most `limit` bytes, which the head
    /// check enforces already) and runs the operation with the bytes in `RawBody.current`.
    struct Middleware: ServerMiddleware {
        let limit: Int

        func intercept(_ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
                       next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?))
            async throws -> (HTTPResponse, HTTPBody?) {
            guard let body else { return try await next(request, nil, metadata) }
            let bytes = try await [UInt8](collecting: body, upTo: limit)
            if RawBody.holdsNUL(bytes) {
                let answer = ErrorBody.bytes(code: "invalid_request", message: "a string of the body holds U+0000, which this server does not store")
                return (HTTPResponse(status: .badRequest, headerFields: [.contentType: "application/json"]), HTTPBody(answer))
            }
            return try await RawBody.$current.withValue(bytes) {
                try await next(request, HTTPBody(bytes), metadata)
            }
        }
    }

    /// Whether a JSON string of the body holds U+0000 (only parsed when its escape appears).
    static func holdsNUL(_ bytes: [UInt8]) -> Bool {
        let escape = Array("u0000".utf8)
        let mayHold = bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index + 5 < buffer.count {
                // A backslash, then u0000: the one way JSON text writes U+0000.
                if buffer[index] == UInt8(ascii: "\\"), buffer[index + 1] == escape[0], buffer[index + 2] == escape[1],
                   buffer[index + 3] == escape[2], buffer[index + 4] == escape[3], buffer[index + 5] == escape[4] {
                    return true
                }
                index += 1
            }
            return false
        }
        guard mayHold, let document = try? JSONValue(parsing: bytes) else { return false }
        return document.holdsNUL
    }
}
