import HTTPTypes
import Hummingbird
import NIOCore
import ServerDomain

/// Operators sign in to the dashboard in a browser: `GET /dashboard/login` is a form that takes
/// an operator key holding the `dashboard` scope, `POST /dashboard/login` starts a session (a
/// `SecretToken` in an HttpOnly, SameSite=Strict cookie on /dashboard, Secure behind https,
/// kept in the database as its digest so every replica knows it), and `POST /dashboard/logout`
/// ends it. Each form carries a CSRF token: the sign-in form's is repeated in a cookie of its
/// own, a session's is derived from its token. Failed sign-ins count with every other wrong
/// operator key from the same client address (`KeyGuesses`, per replica).
enum DashboardLoginRoute {
    /// How sessions are made: their life and whether cookies say Secure.
    struct Settings: Sendable {
        var ttlSeconds = 8 * 3600
        var secureCookies = false
    }

    /// The largest sign-in form taken (a key and two tokens fit many times over).
    static let maxFormBytes = 4096

    static func register(on routes: ServerRoutes, api: API, settings: Settings) {
        let gate = routes.doors.guesses
        let keys = routes.doors.operatorKeys, audit = routes.audit
        routes.add(.get, "/dashboard/login", door: .anyone) { input in
            form(api, settings, next: input.query["next"], status: .ok, message: nil)
        }
        routes.add(.post, "/dashboard/login", door: .anyone, bodyLimit: maxFormBytes) { input in
            let address = input.clientAddress
            if case .wait(let seconds) = gate.admits(address, now: api.clock.nowMilliseconds()) {
                var page = form(api, settings, next: nil, status: .tooManyRequests,
                                message: "Too many attempts from this address: try again in \(seconds) s.")
                page.headers[.retryAfter] = String(seconds)
                return page
            }
            let fields = LoginForm(input.body)
            let answer = try await signIn(fields, cookie: input.headers[.cookie], keys: keys, api: api.serving(input), settings: settings, audit: audit)
            if answer.status == .unauthorized || answer.status == .forbidden { gate.failed(address, now: api.clock.nowMilliseconds()) }
            return answer
        }
        routes.add(.post, "/dashboard/logout", door: .operatorPage(.dashboard), bodyLimit: maxFormBytes) { input in
            let fields = LoginForm(input.body)
            guard let csrf = input.viewer?.csrf else {
                return ErrorBody.response(.badRequest, code: "no_session", "an operator key signs nothing out: there is no session")
            }
            guard let given = fields["csrf"], ConstantTime.same(Array(given.utf8), Array(csrf.utf8)) == 1 else {
                return ErrorBody.response(.forbidden, code: "csrf_mismatch", "the form's CSRF token is not this session's")
            }
            if let token = SessionCookies.value(SessionCookies.session, in: input.headers[.cookie]),
               let digest = SecretToken.digest(ofToken: token) {
                try await api.setup.store.endSession(digest: digest)
            }
            input.logger.notice("operator signed out", metadata: ["key_id": .string(input.viewer?.keyId ?? "")])
            if let viewer = input.viewer { try await audit.keep(viewer, "sign out", "", status: 303) }
            var headers: HTTPFields = [.location: "/dashboard/login", .cacheControl: "no-store"]
            headers[.setCookie] = SessionCookies.setCookie(SessionCookies.session, "", path: "/dashboard", maxAge: 0,
                                                           secure: settings.secureCookies)
            return Response(status: .seeOther, headers: headers)
        }
    }

    private static func signIn(_ fields: LoginForm, cookie: String?, keys: OperatorKeys, api: API, settings: Settings,
                               audit: AuditTrail) async throws -> Response {
        let next = fields["next"]
        guard let csrf = fields["csrf"], let expected = SessionCookies.value(SessionCookies.login, in: cookie),
              ConstantTime.same(Array(csrf.utf8), Array(expected.utf8)) == 1 else {
            return form(api, settings, next: next, status: .forbidden,
                        message: "The form had expired or did not come from this page: sign in again.")
        }
        guard let secret = fields["key"], let key = keys.key(secret: secret) else {
            api.logger.notice("a dashboard sign-in was refused: not an operator key")
            return form(api, settings, next: next, status: .unauthorized, message: "That is not an operator key this server accepts.")
        }
        guard key.scopes.contains(.dashboard) else {
            return form(api, settings, next: next, status: .forbidden,
                        message: "Operator key '\(key.id)' does not hold the scope 'dashboard'.")
        }
        let now = api.clock.nowMilliseconds()
        let (token, digest) = SecretToken.make(api.random)
        let session = OperatorSession(keyId: key.id, keyBinding: OperatorSession.binding(ofKeyDigest: key.digest), expiresAt: now + settings.ttlSeconds * 1000)
        try await api.setup.store.startSession(digest: digest, session, now: now)
        api.logger.notice("operator signed in", metadata: ["key_id": .string(key.id)])
        try await audit.keep(Viewer(keyId: key.id, csrf: nil), "sign in", "", status: 303)
        var headers: HTTPFields = [.location: SessionCookies.destination(next), .cacheControl: "no-store"]
        headers.append(HTTPField(name: .setCookie, value: SessionCookies.setCookie(
            SessionCookies.session, token, path: "/dashboard", maxAge: settings.ttlSeconds, secure: settings.secureCookies)))
        headers.append(HTTPField(name: .setCookie, value: SessionCookies.setCookie(
            SessionCookies.login, "", path: "/dashboard/login", maxAge: 0, secure: settings.secureCookies)))
        return Response(status: .seeOther, headers: headers)
    }

    /// The sign-in page, with a fresh CSRF token in its form and in its cookie.
    private static func form(_ api: API, _ settings: Settings, next: String?, status: HTTPResponse.Status, message: String?) -> Response {
        let csrf = SecretToken.make(api.random).token
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        headers[.setCookie] = SessionCookies.setCookie(SessionCookies.login, csrf, path: "/dashboard/login", maxAge: 900,
                                                       secure: settings.secureCookies)
        let page = DashboardLoginPage.page(csrf: csrf, next: SessionCookies.destination(next), message: message)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }
}

/// An `application/x-www-form-urlencoded` body's fields (the first of each name).
struct LoginForm {
    private var fields: [String: String] = [:]

    init(_ body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first.flatMap({ Self.decoded($0) }), fields[name] == nil else { continue }
            fields[name] = parts.count > 1 ? Self.decoded(parts[1]) : ""
        }
    }

    subscript(_ name: String) -> String? { fields[name] }

    private static func decoded(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
