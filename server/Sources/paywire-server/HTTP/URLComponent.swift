import Foundation

/// Text as one percent-encoded URL component (a path segment, a form or query value): letters,
/// digits and `- . _ ~` as they are, every other byte escaped, so an id or a value can never
/// end its segment, start a query or add a field. One encoder for the Play API's paths, Stripe's
/// forms and the web paywall's links.
enum URLComponent {
    static func escaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// A path segment as the route means it: percent-decoded, once, for the handler and the
    /// audit alike (`%76ictim` is `victim` to both); nil when its escapes are not UTF-8.
    static func decoded(_ segment: Substring) -> String? {
        String(segment).removingPercentEncoding
    }
}
