import PaywireModel
import PaywireWire

/// One HTTP request the core wants sent.
public struct HTTPRequest: Sendable {
    public let method: String
    public let url: String
    /// Header pairs in order, names lowercase.
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]?
    /// The whole exchange must finish within this, or it fails with `timedOut`.
    public let timeoutMilliseconds: Int
}

/// What came back from the server.
public struct HTTPResponse: Sendable {
    public let status: Int
    /// Header pairs as received; look names up case-insensitively.
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header named `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }
}

/// How an HTTP exchange ended, whichever transport carried it.
public enum HTTPOutcome: Sendable {
    /// The server answered (any status).
    case response(HTTPResponse)
    /// No answer: connection refused, reset, TLS failure, a truncated body... `code` is the
    /// transport's short name for it (for `underlying_error`), `message` says it for people.
    case failed(code: String, message: String)
    /// The deadline passed first.
    case timedOut
}

/// The built-in network port (`transport {type: http}`). The boundary implements it over a
/// real HTTP library; the core owns no sockets. An answer must reach
/// `Client.httpFinished(token:outcome:)` under the client's lock, off the caller's stack,
/// exactly once — unless the client is freed first, when it must not arrive at all.
public protocol HTTPTransport: AnyObject, Sendable {
    func send(_ request: HTTPRequest, token: UInt64)
}

extension HTTPResponse {
    /// Whether asking again later may succeed: 408, 429 and 5xx (the one list, for every route).
    var isRetryable: Bool { status == 408 || status == 429 || (500..<600).contains(status) }

    /// The time its `Date` header gives, when it has a valid one (ms since the epoch).
    var date: Int? { header("date").flatMap(HTTPDate.parse) }
}
