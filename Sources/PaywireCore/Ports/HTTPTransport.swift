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
    public let timeoutMilliseconds: WideInt
}

/// What came back from the server.
public struct HTTPResponse: Sendable {
    public let status: Int
    /// Header pairs as received; look names up case-insensitively.
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]
    /// How the core judged its signature (`Backend`): not requested until then.
    var trust = AnswerTrust.notRequested

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
    var date: WideInt? { header("date").flatMap(HTTPDate.parse) }

    /// Whether it carries or confirms access, so its signature is checked: an answer with a
    /// profile (2xx, a purchase's 422) or the word that the profile is unchanged or unknown
    /// (304, 404). Any other status grants nothing whoever sent it.
    var carriesAccess: Bool { (200..<300).contains(status) || status == 304 || status == 404 || status == 422 }
}

extension HTTPOutcome {
    /// The outcome's code when the core refused an answer whose signature failed
    /// (`response_verification` enforced): the parts that wait on the backend report it as
    /// `response_verification_failed`, and otherwise treat it as the network failure it stands for.
    static let unverifiedCode = "response_verification_failed"

    /// The error of a transport failure (`failed(code, message)`) for a part that reports one:
    /// `response_verification_failed` for a refused answer, `network_failed` for anything else.
    static func transportError(code: String, message: String) -> WireError {
        WireError(code == unverifiedCode ? .responseVerificationFailed : .networkFailed, message,
                  details: JSONObject([("underlying_error", .string(code))]))
    }
}
