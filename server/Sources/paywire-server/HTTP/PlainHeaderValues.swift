import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Header values as HTTP writes them. swift-openapi-runtime percent-encodes every header value
/// it writes and percent-decodes (and splits at commas) every one it reads (RFC 6570 "simple"
/// style, as OpenAPI 3.0.3 was read), so the strong ETag `"12d2…"` would leave as
/// `%2212d2…%22`, and a profile id `a%zz` or an `If-None-Match` naming two tags would not read
/// as sent. OpenAPI 3.0.4 and 3.1.1 say header values are not percent-encoded
/// (apple/swift-openapi-generator#857, #529, where the maintainers point to a middleware). This
/// encodes the request headers the spec declares, so that the runtime's decoding gives back
/// exactly what came, and decodes the response headers it declares, none of which can hold a
/// `%` of its own.
struct PlainHeaderValues: ServerMiddleware {
    static let names: [HTTPField.Name] = [.eTag, .retryAfter]
    static let requestNames: [HTTPField.Name] = [HTTPField.Name("x-paywire-profile-id"), .ifNoneMatch, HTTPField.Name("stripe-signature")].compactMap { $0 }
    /// RFC 3986's unreserved characters: what percent-encoding leaves as it is.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    func intercept(_ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?))
        async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for name in Self.requestNames {
            guard let value = request.headerFields[name], let encoded = value.addingPercentEncoding(withAllowedCharacters: Self.unreserved) else {
                continue
            }
            request.headerFields[name] = encoded
        }
        var (response, responseBody) = try await next(request, body, metadata)
        for name in Self.names {
            guard let value = response.headerFields[name], let plain = value.removingPercentEncoding else { continue }
            response.headerFields[name] = plain
        }
        return (response, responseBody)
    }
}
