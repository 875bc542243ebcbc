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
}
