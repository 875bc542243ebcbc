import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaywireWire

/// Why no checkout session was made; the visitor sees a page saying the payment could not
/// start, and the log says why. Never the API key in it.
struct StripeAPIProblem: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Stripe's Checkout Sessions API (`--stripe-api-key`, `--stripe-api-base`): creates the
/// session a web paywall's visitor pays in. Every call has a deadline (`--stripe-api-timeout-ms`).
struct StripeCheckoutAPI: Sendable, CustomStringConvertible {
    /// Without a trailing slash: `https://api.stripe.com` unless given.
    let base: String
    private let key: String
    private let session: URLSession

    init(key: String, base: String, timeoutMillis: Int) {
        self.key = key
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        session = URLSession.outbound(deadlineMillis: timeoutMillis)
    }

    /// Names the API, never the key: a value printed into a log stays free of it.
    var description: String { "StripeCheckoutAPI(\(base))" }

    /// The new session's id and the URL of its hosted page.
    func create(_ checkout: StripeCheckoutRequest) async throws(StripeAPIProblem) -> (id: String, url: String) {
        guard let url = URL(string: base + "/v1/checkout/sessions") else { throw StripeAPIProblem("the Stripe API address is not a URL") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(checkout.body.utf8)
        let status: Int, body: [UInt8]
        do {
            let (data, response) = try await session.data(for: request)
            (status, body) = ((response as? HTTPURLResponse)?.statusCode ?? 0, Array(data))
        } catch {
            throw StripeAPIProblem("the Stripe API did not answer in time or at all (\((error as NSError).code))")
        }
        let answer = try? JSONValue(parsing: body)
        guard status == 200 else {
            let said = answer?["error"]?["message"]?.asString.map { ": \($0.prefix(200))" } ?? ""
            throw StripeAPIProblem("the Stripe API answered \(status)\(said)")
        }
        guard let id = answer?["id"]?.asString, !id.isEmpty, let page = answer?["url"]?.asString,
              page.hasPrefix("https://") || page.hasPrefix("http://") else {
            throw StripeAPIProblem("the Stripe API answered a session without an id or a url")
        }
        return (id, page)
    }
}
