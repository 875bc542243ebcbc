/// What a backend request is for, so its answer finds the part that asked.
enum BackendRequest: Sendable {
    /// `PlacementLoader`: a placement of a kind.
    case placement(PlacementKey)
    /// `ProfileSync`: the profile with this id (a later identify or logout makes the answer stale).
    case profile(String)
    /// `Outbox`: a batch of a lane's records, by number (one is in flight per lane).
    case outbox(OutboxLane, batch: UInt64)
    /// `Purchases`: a restore to validate, for whoever asked.
    case restore(RestoreRequester)
}

/// Where remote content comes from, and who carries the requests.
enum RemoteTransport {
    /// The host's network stack, through `host_request` events of kind `http`.
    case host(baseURL: String)
    /// The library's own HTTP client.
    case builtIn(baseURL: String, client: HTTPTransport, requestTimeout: Int)

    /// Nil when the config names no transport (the bundle is the only source).
    init?(_ config: TransportConfig?, builtIn: HTTPTransport?) throws(WireError) {
        guard let config else { return nil }
        switch config.carrier {
        case .host:
            self = .host(baseURL: config.baseURL)
        case .builtIn:
            guard let builtIn else {
                throw WireError.wrongParam("transport.type", "this build of the library has no built-in HTTP client; use 'host'")
            }
            self = .builtIn(baseURL: config.baseURL, client: builtIn, requestTimeout: config.requestTimeoutMilliseconds)
        }
    }

    var baseURL: String {
        switch self {
        case .host(let baseURL), .builtIn(let baseURL, _, _): return baseURL
        }
    }
}

/// The link to the backend: sends a request through whichever transport the config chose and
/// hands the outcome back tagged with what it was for. Both carriers end in one `HTTPOutcome`,
/// so every policy above this line is the same for both.
final class Backend {
    let transport: RemoteTransport
    /// `api_key`, sent as `authorization: Api-Key <key>` on every request.
    private let apiKey: String?
    private let broker: HostRequestBroker
    private let calls: Calls
    private let timers: Timers
    /// Built-in client requests in flight, by transport token.
    private var exchanges: [UInt64: BackendRequest] = [:]
    private var nextToken: UInt64 = 1

    init(transport: RemoteTransport, apiKey: String?, broker: HostRequestBroker, calls: Calls, timers: Timers) {
        self.transport = transport
        self.apiKey = apiKey
        self.broker = broker
        self.calls = calls
        self.timers = timers
    }

    /// `{base_url}/v1/{collection}/{id}`.
    func url(_ collection: String, _ id: String) -> String {
        RemoteSource.url(baseURL: transport.baseURL, collection: collection, id: id)
    }

    /// `{base_url}/v1/{route}`, for a route with no id (`events`).
    func url(route: String) -> String {
        let base = transport.baseURL.hasSuffix("/") ? String(transport.baseURL.dropLast()) : transport.baseURL
        return "\(base)/v1/\(route)"
    }

    /// Whether the host carries the requests (a call waiting on one waits on the host).
    var carriedByHost: Bool {
        if case .host = transport { return true }
        return false
    }

    /// Sends one request, with the api key and, for a body, its content type; the outcome
    /// comes back through `Client.backendAnswered`.
    func send(_ purpose: BackendRequest, method: String, url: String, headers: [(name: String, value: String)], body: [UInt8]? = nil) {
        var headers = headers
        if body != nil { headers.append(("content-type", "application/json")) }
        if let apiKey { headers.append(("authorization", "Api-Key \(apiKey)")) }
        switch transport {
        case .builtIn(_, let client, let requestTimeout):
            let token = nextToken
            nextToken += 1
            exchanges[token] = purpose
            client.send(HTTPRequest(method: method, url: url, headers: headers, body: body, timeoutMilliseconds: requestTimeout), token: token)
        case .host:
            let timeout = broker.timeout
            broker.ask(.http, view: nil, resume: .backend(purpose)) { writer in
                writer.member("method", method)
                writer.member("url", url)
                writer.key("headers")
                writer.array { writer in
                    for (name, value) in headers { writer.array { writer in writer.string(name); writer.string(value) } }
                }
                writer.member("body", body.map { String(decoding: $0, as: UTF8.self) })
                writer.member("timeout_ms", timeout)
            }
        }
    }

    /// The built-in client's answer to request `token`; nil when it was already answered.
    func builtInFinished(token: UInt64) -> BackendRequest? { exchanges.removeValue(forKey: token) }

    /// Promises an answer to a call that waits on the backend, and sets its `load_timeout`
    /// budget (`budgetWork` names what happens when it runs out). A synchronous caller waits a
    /// little past the budget at most, so the budget's own answer always reaches it first.
    func promise(_ method: String, loadTimeout: Double,
                 budgetWork: (UInt64) -> TimerWork) throws(WireError) -> (token: UInt64, outcome: CallOutcome, budget: UInt64) {
        let budgetMilliseconds = Int(loadTimeout * 1000)
        let (token, outcome) = try calls.promise(method, waitsOnHost: carriedByHost, budget: budgetMilliseconds)
        return (token, outcome, timers.schedule(budgetWork(token), after: budgetMilliseconds))
    }
}

extension HostOutcome {
    /// The host's answer to an `http` request, as the outcome of the exchange: `result
    /// {status, headers, body}`, `result {transport_error {code, message}}`, or `error`.
    var httpOutcome: HTTPOutcome {
        switch self {
        case .timedOut: return .timedOut
        case .answered(let answer): return answer.httpOutcome
        }
    }
}

extension HostAnswer {
    fileprivate var httpOutcome: HTTPOutcome {
        if let error = error(code: .networkFailed, fallback: "the request failed") {
            return .failed(code: error.code.rawValue, message: error.message)
        }
        guard let result else { return .failed(code: "bad_answer", message: "the host's answer has neither result nor error") }
        if case .object(let fields)? = result.object["transport_error"] {
            var code = "transport_error"
            var message = "the host's HTTP request failed"
            if case .string(let text)? = fields["code"] { code = text }
            if case .string(let text)? = fields["message"] { message = text }
            return .failed(code: code, message: message)
        }
        guard case .number(let statusNumber)? = result.object["status"], let status = statusNumber.intValue else {
            return .failed(code: "bad_answer", message: "the HTTP answer has no status")
        }
        var headers: [(name: String, value: String)] = []
        if case .array(let pairs)? = result.object["headers"] {
            for pair in pairs {
                if case .array(let parts) = pair, parts.count == 2, case .string(let name) = parts[0], case .string(let value) = parts[1] {
                    headers.append((name, value))
                }
            }
        }
        var body: [UInt8] = []
        if case .string(let text)? = result.object["body"] { body = Array(text.utf8) }
        return .response(HTTPResponse(status: status, headers: headers, body: body))
    }
}
