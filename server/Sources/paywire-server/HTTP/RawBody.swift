import HTTPTypes
import OpenAPIRuntime

/// The request body's bytes as they came, for the parts of an operation that need its exact
/// text: numbers as written (prices), members the spec does not name (kept in stored records),
/// records named one by one in a refusal. The generated server decodes the typed input from
/// the same bytes; `RawBody.middleware` collects them once and hands both on.
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
            return try await RawBody.$current.withValue(bytes) {
                try await next(request, HTTPBody(bytes), metadata)
            }
        }
    }
}
