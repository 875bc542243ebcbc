import PaywireWire

/// A paywall builder configuration, as `paywall_view_get_configuration` resolves it, drawn as one
/// HTML document for browsers: the web checkout, the dashboard's preview and the docs gallery
/// all show the same page, so what an operator previews is what a buyer gets.
///
/// The page is self-contained (one nonce'd `<style>` and one nonce'd `<script>`, no inline
/// `style=` or handlers) so it runs under a strict Content-Security-Policy, and it works without
/// JavaScript: choosing a plan is a group of radio inputs, buying is a form post.
public enum PaywallPage {
    /// What the page is for, which decides whether it can buy anything.
    public enum Mode: Sendable {
        /// A page that sells: the body is one form posting the chosen `product_id` (and
        /// `promo_code`) with `hiddenFields` to `checkoutAction`.
        case live(checkoutAction: String, hiddenFields: [(String, String)])
        /// A page to look at: nothing posts and buttons are inert, and sections the renderer
        /// cannot draw are shown as notes so an operator sees what a buyer would miss.
        case preview
    }

    /// What the caller knows that the configuration does not.
    public struct Options: Sendable {
        /// The document's `<title>`, and its heading when the configuration has no header.
        public var title: String
        /// The configuration's language (`<html lang>`), so screen readers pronounce it right.
        public var lang: String
        /// The Content-Security-Policy nonce of this response; it must be fresh per response.
        public var nonce: String
        /// Whether the page sells or only shows.
        public var mode: Mode
        /// The page's own beacon: sent once a browser has drawn it (a live page's exposure is
        /// counted from it, not from the page's request). Nil: none.
        public var seen: Beacon? = nil

        /// Options for one response; `nonce` must match the response's CSP header.
        public init(title: String, lang: String, nonce: String, mode: Mode) {
            self.title = title
            self.lang = lang
            self.nonce = nonce
            self.mode = mode
        }
    }

    /// A request the page makes itself once a browser has drawn it: `POST url` with `body` (a
    /// form, `application/x-www-form-urlencoded`), carrying the browser's cookies. A client that
    /// only fetches the page never sends it, so what counts showings can tell a browser that
    /// drew the page from one that did not (a crawler, a script).
    public struct Beacon: Sendable, Equatable {
        public let url: String
        public let body: String

        public init(url: String, body: String) {
            self.url = url
            self.body = body
        }

        /// The element the page's script finds the beacon by.
        var element: String {
            "<div hidden data-pw-seen\(HTMLText.attribute("data-pw-seen-url", url))\(HTMLText.attribute("data-pw-seen-body", body))></div>"
        }
    }

    /// The whole HTML document for a resolved builder configuration. Never fails: a section or
    /// field it cannot read is left out (a note in preview), so a bad draft still shows a page.
    public static func render(_ configuration: JSONValue, options: Options) -> String {
        Document.render(configuration, options: options)
    }

    /// The section types the renderer draws; the builder's list, so a new type is noticed here.
    public static let sectionTypes: [String] = [
        "header", "features_list", "plan_selection", "cta_button", "social_proof", "guarantee", "image",
        "spacer", "testimonial", "countdown", "legal", "divider", "sticky_footer", "card", "carousel",
        "timeline", "icon_grid", "comparison_table", "promo_input", "toggle", "reviews_carousel",
    ]

    /// The plan styles the renderer draws; the builder's list, for the same reason.
    public static let planStyles: [String] = [
        "horizontal_cards", "vertical_stack", "toggle_switch", "segmented_control", "radio_list", "carousel",
        "comparison_grid", "pill_selector", "tier_blocks", "minimal_text", "featured_highlight", "accordion",
    ]

    /// The layouts a configuration may name; any other draws as `stack`.
    static let layouts: [String] = ["stack", "grid", "carousel"]
}
