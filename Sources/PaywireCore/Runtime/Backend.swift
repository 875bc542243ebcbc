import PaywireModel
import PaywireWire

/// What the part that sent a backend request does with the outcome.
typealias BackendReply = (HTTPOutcome) -> Void

/// Where remote content comes from, and who carries the requests.
enum RemoteTransport {
    /// The host's network stack, through `host_request` events of kind `http`.
    case host(baseURL: String)
    /// The library's own HTTP client.
    case builtIn(baseURL: String, client: HTTPTransport, requestTimeout: WideInt)

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
    /// Hears the backend's time: its `Date` header on every answer, or with
    /// `response_verification` on, the signed time of each verified answer only.
    private let accessClock: AccessClock
    /// The profiles' credentials this device holds: sent with, and kept from, the requests
    /// that name a profile.
    let credentials: ProfileCredentials
    /// Signs up the requests that can return access and checks their answers; nil when
    /// `response_verification` is disabled.
    let verifier: ResponseVerifier?
    private let log: Log
    /// Built-in client requests in flight, by transport token.
    private var exchanges: [UInt64: BackendReply] = [:]
    private var nextToken: UInt64 = 1

    init(transport: RemoteTransport, apiKey: String?, broker: HostRequestBroker, calls: Calls, timers: Timers,
        accessClock: AccessClock, credentials: ProfileCredentials, verifier: ResponseVerifier?, log: Log) {
        self.credentials = credentials
        self.verifier = verifier
        self.log = log
        self.transport = transport
        self.apiKey = apiKey
        self.broker = broker
        self.calls = calls
        self.timers = timers
        self.accessClock = accessClock
    }

    /// Drops the replies of the built-in client's requests in flight (the client is being
    /// freed): a later answer finds none.
    func cancelAll() { exchanges.removeAll() }

    /// `{base_url}/v1/{collection}/{id}`, the id percent-encoded as one path segment.
    func url(_ collection: String, _ id: String) -> String { url(route: "\(collection)/\(Backend.pathSegment(id))") }

    /// `{base_url}/v1/{route}` (`base_url` has no trailing slash: the config took it off).
    func url(route: String) -> String { "\(transport.baseURL)/v1/\(route)" }

    /// `id` percent-encoded as one path segment (unreserved characters stay).
    static func pathSegment(_ id: String) -> String {
        var escaped = ""
        for byte in id.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if character.isASCII && (character.isLetter || character.isNumber || "-_.~".contains(character)) {
                escaped.append(character)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                escaped += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return escaped
    }

    /// How long one request may take before its outcome is a timeout: the host's deadline or
    /// the built-in client's request timeout.
    var requestTimeout: WideInt {
        switch transport {
        case .host: return broker.timeout
        case .builtIn(_, _, let requestTimeout): return requestTimeout
        }
    }

    /// Whether the host carries the requests (a call waiting on one waits on the host).
    var carriedByHost: Bool {
        if case .host = transport { return true }
        return false
    }

    /// Sends one request, with the api key, for a body its content type, and for a request
    /// naming `profileId` that profile's credential; `reply` gets the outcome, once.
    ///
    /// A request whose answer can carry access (`carriesAccess`) carries a fresh nonce when
    /// verification is on, and its answer's signature is judged before `reply` hears it
    /// (`verified`): in enforced mode an answer that fails reaches `reply` as a failure. A
    /// signed answer that carries a profile must be about `profileId`, unless `keepsCredential`
    /// is false (an identity's answer names the customer's profile, which may be another).
    ///
    /// A new credential in an answer that reaches `reply` is kept for `profileId`, unless
    /// `keepsCredential` is false (an identity answer's belongs to the profile it names: its
    /// reader keeps it), and only while the device still holds the credential the request
    /// carried: a late answer to a request sent before the device held its credential (two
    /// first requests that crossed) never replaces the one the device has used since.
    func send(method: String, url: String, headers: [(name: String, value: String)], body: [UInt8]? = nil,
              carriesAccess: Bool = false, profileId: String? = nil, keepsCredential: Bool = true,
              reply: @escaping BackendReply) {
        let credentials = self.credentials
        let carried = profileId.flatMap { credentials.credential(for: $0) }
        let kept: BackendReply = { outcome in
            if keepsCredential, let profileId, case .response(let response) = outcome,
               let issued = response.header(ProfileCredentials.header), credentials.credential(for: profileId) == carried {
                credentials.keep(issued, for: profileId)
            }
            reply(outcome)
        }
        var headers = headers + credentials.headers(for: profileId)
        let answered: BackendReply
        if let verifier {
            var signed: (nonce: String, path: String, about: String?)?
            if carriesAccess {
                let (nonce, added) = verifier.requestHeaders()
                headers += added
                // The path from `/v1/`, as the server receives it behind a proxy that strips a prefix.
                signed = (nonce, url.hasPrefix(transport.baseURL) ? String(url.dropFirst(transport.baseURL.count)) : url,
                          keepsCredential ? profileId : nil)
            }
            answered = { [self] outcome in
                guard let signed, case .response(let response) = outcome, response.carriesAccess else { return kept(outcome) }
                kept(verified(response, method: method, nonce: signed.nonce, path: signed.path, about: signed.about))
            }
        } else {
            let accessClock = self.accessClock
            answered = { outcome in
                if case .response(let response) = outcome, let time = response.date { accessClock.backendSaid(time) }
                kept(outcome)
            }
        }
        if body != nil { headers.append(("content-type", "application/json")) }
        if let apiKey { headers.append(("authorization", "Api-Key \(apiKey)")) }
        switch transport {
        case .builtIn(_, let client, let requestTimeout):
            let token = nextToken
            nextToken += 1
            exchanges[token] = answered
            client.send(HTTPRequest(method: method, url: url, headers: headers, body: body, timeoutMilliseconds: requestTimeout), token: token)
        case .host:
            let timeout = broker.timeout
            broker.ask(.http, origin: nil, payload: { writer in
                writer.member("method", method)
                writer.member("url", url)
                writer.key("headers")
                writer.array { writer in
                    for (name, value) in headers { writer.array { writer in writer.string(name); writer.string(value) } }
                }
                writer.member("body", body.map { String(decoding: $0, as: UTF8.self) })
                writer.member("timeout_ms", timeout)
            }, reply: { outcome in answered(outcome.httpOutcome) })
        }
    }

    /// `response` as the parts see it once its signature was judged: marked verified (and the
    /// access clock follows its signed time, which no one between could move), or failed:
    /// marked so in informational mode, refused like a network failure in enforced mode. A
    /// failure is logged either way.
    private func verified(_ response: HTTPResponse, method: String, nonce: String, path: String, about: String?) -> HTTPOutcome {
        guard let verifier else { return .response(response) }
        var response = response
        switch verifier.check(response, nonce: nonce, method: method, path: path, about: about) {
        case .success(let answer):
            accessClock.backendSaid(answer.signedAt)
            response.trust = AnswerTrust(verification: .verified, signed: answer)
            return .response(response)
        case .failure(let failure):
            let enforced = verifier.mode == .enforced
            let message = "the backend's answer to \(method) \(path) (HTTP \(response.status)) is not signed as this request asked "
                + "(\(failure.rawValue)): " + (enforced ? "it is refused" : "it is applied, marked verification failed")
            log(enforced ? .error : .warn, message,
                details: [("reason", .string(failure.rawValue)), ("route", .string("\(method) \(path)")),
                          ("status", .number(JSONNumber(response.status))), ("mode", .string(verifier.mode.rawValue))])
            guard !enforced else { return .failed(code: HTTPOutcome.unverifiedCode, message: message) }
            response.trust = .failed
            return .response(response)
        }
    }

    /// The built-in client's answer to request `token`; nothing when it was already answered.
    func builtInFinished(token: UInt64, _ outcome: HTTPOutcome) { exchanges.removeValue(forKey: token)?(outcome) }

    /// Promises an answer to a call that waits on the backend, and sets its `load_timeout`
    /// budget (`budgetWork` names what happens when it runs out). A synchronous caller waits a
    /// little past the budget at most, so the budget's own answer always reaches it first.
    func promise(_ method: String, loadTimeout: Double,
                 budgetWork: @escaping (UInt64) -> Void) throws(WireError) -> (token: UInt64, outcome: CallOutcome, budget: UInt64) {
        let budgetMilliseconds = Milliseconds.of(seconds: loadTimeout)
        let (token, outcome) = try calls.promise(method, waitsOnHost: carriedByHost, budget: budgetMilliseconds)
        return (token, outcome, timers.schedule(after: budgetMilliseconds) { budgetWork(token) })
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
