import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaywireWire
import ServerDomain

/// The Play Developer API (`--play-api-base`), asked after every RTDN for the purchase's state:
/// `purchases.subscriptionsv2.get` and `purchases.products.get`, with an access token the
/// service account's signed assertion is exchanged for at its token URI (kept until a minute
/// before it expires). Every call has a deadline (`--play-api-timeout-ms`).
actor PlayDeveloperAPI {
    let account: PlayServiceAccount
    /// Without a trailing slash: `https://androidpublisher.googleapis.com` unless given.
    let base: String
    /// When the access token expires, by the server's clock.
    let clock: any ServerClock
    private let session: URLSession
    private var access: (token: String, expiresAt: Int)?

    init(account: PlayServiceAccount, base: String, timeoutMillis: Int, clock: any ServerClock) {
        self.account = account
        self.clock = clock
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        session = URLSession.outbound(deadlineMillis: timeoutMillis)
    }

    /// `GET {base}/androidpublisher/v3/applications/{packageName}/purchases/subscriptionsv2/tokens/{token}`.
    func subscription(packageName: String, token: String) async throws(PlayAPIProblem) -> JSONValue {
        try await get("/androidpublisher/v3/applications/\(URLComponent.escaped(packageName))/purchases/subscriptionsv2/tokens/\(URLComponent.escaped(token))")
    }

    /// `GET {base}/androidpublisher/v3/applications/{packageName}/purchases/products/{productId}/tokens/{token}`.
    func product(packageName: String, productId: String, token: String) async throws(PlayAPIProblem) -> JSONValue {
        try await get("/androidpublisher/v3/applications/\(URLComponent.escaped(packageName))/purchases/products/\(URLComponent.escaped(productId))"
            + "/tokens/\(URLComponent.escaped(token))")
    }

    private func get(_ path: String) async throws(PlayAPIProblem) -> JSONValue {
        guard let url = URL(string: base + path) else { throw PlayAPIProblem("the Play Developer API address is not a URL") }
        var request = URLRequest(url: url)
        request.setValue("Bearer \(try await accessToken())", forHTTPHeaderField: "Authorization")
        let (status, body) = try await send(request, "the Play Developer API")
        guard status == 200 else { throw PlayAPIProblem("the Play Developer API answered \(status)") }
        guard let value = try? JSONValue(parsing: body), value.isObject else { throw PlayAPIProblem("the Play Developer API answered no JSON object") }
        return value
    }

    private func accessToken() async throws(PlayAPIProblem) -> String {
        let now = clock.nowSeconds()
        if let access, now < access.expiresAt - 60 { return access.token }
        guard let url = URL(string: account.tokenURI) else { throw PlayAPIProblem("the service account's token_uri is not a URL") }
        let assertion: String
        do {
            assertion = try account.assertion(now: now)
        } catch {
            throw PlayAPIProblem("the service account's key cannot sign")
        }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)".utf8)
        let (status, body) = try await send(request, "the token URI")
        guard status == 200, let answer = try? JSONValue(parsing: body), let token = answer["access_token"]?.asString, !token.isEmpty else {
            throw PlayAPIProblem("the token URI gave no access token (status \(status))")
        }
        access = (token, now + max(answer["expires_in"]?.asInt ?? 0, 0))
        return token
    }

    private func send(_ request: URLRequest, _ what: String) async throws(PlayAPIProblem) -> (Int, [UInt8]) {
        do {
            let (data, response) = try await session.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, Array(data))
        } catch {
            throw PlayAPIProblem("\(what) did not answer in time or at all (\((error as NSError).code))")
        }
    }

}
