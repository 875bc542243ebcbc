import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Response header values as HTTP writes them. swift-openapi-runtime percent-encodes every
/// header value it serializes (RFC 6570 "simple" style, as OpenAPI 3.0.3 was read), so the
/// strong ETag `"12d2…"` would leave as `%2212d2…%22`; OpenAPI 3.0.4 and 3.1.1 say header
/// values are not to be percent-encoded (apple/swift-openapi-generator#857, #529, where the
/// maintainers point to a middleware). This undoes it for the headers the spec declares on
/// responses, none of which can hold a `%` of its own.
struct PlainHeaderValues: ServerMiddleware {
    static let names: [HTTPField.Name] = [.eTag, .retryAfter]

    func intercept(_ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?))
        async throws -> (HTTPResponse, HTTPBody?) {
        var (response, responseBody) = try await next(request, body, metadata)
        for name in Self.names {
            guard let value = response.headerFields[name], let plain = value.removingPercentEncoding else { continue }
            response.headerFields[name] = plain
        }
        return (response, responseBody)
    }
}
