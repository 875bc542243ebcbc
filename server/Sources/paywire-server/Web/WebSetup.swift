import PaywireModel
import PaywireServing

/// What the web paywall was started with: on only with `--stripe-api-key`, since a page whose
/// Continue cannot check out sells nothing.
struct WebSetup: Sendable {
    let checkout: StripeCheckoutAPI
    /// Vendor product id -> Stripe price id: the plans a visitor can buy.
    let prices: [String: String]
    /// The server's public address, or nil for the request's `Host`.
    let publicURL: String?
    /// Browsers reach the server over https: cookies say Secure.
    let secureCookies: Bool

    /// The base of the links Stripe sends the buyer back to. Without `--public-url`, the
    /// address the browser used: only a host of name characters is taken, so a forged `Host`
    /// cannot send a buyer elsewhere than the server it reached.
    func base(host: String?) -> String? {
        if let publicURL { return publicURL }
        guard let host, !host.isEmpty, host.utf8.count <= 255,
              host.utf8.allSatisfy({ c in (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
                  || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":") || c == UInt8(ascii: "[") || c == UInt8(ascii: "]") })
        else { return nil }
        return (secureCookies ? "https://" : "http://") + host
    }
}
