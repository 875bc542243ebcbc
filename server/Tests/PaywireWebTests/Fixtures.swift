import PaywireWire
import PaywireWeb

/// Configurations and helpers the tests share.
enum Fixtures {
    /// The conformance vectors' layout with all 21 section types
    /// (`builder.every_section_type_is_accepted`), its plans as `paywall_view_get_configuration`
    /// resolves them (`builder.computed_plan_values`).
    static let allSections = #"""
    {"layout": "stack", "sections": [
      {"type": "header", "title": "Go Premium", "subtitle": "Everything, everywhere"},
      {"type": "features_list", "items": [{"text": "No ads", "icon": "ban"}, {"text": "Offline mode"}]},
      {"type": "plan_selection", "style": "horizontal_cards", "plans": [
        {"product_id": "premium_annual", "badge": "Best value", "highlighted": true, "price": "$59.99", "period": "1 year", "trial_label": "1 week free", "save_percentage": 61},
        {"product_id": "premium_monthly", "trial_label": "Cancel anytime", "price": "$9.99", "period": "1 month", "save_percentage": 22},
        {"product_id": "premium_weekly", "price": "$2.99", "period": "1 week", "trial_label": null, "save_percentage": null},
        {"product_id": "lifetime", "badge": "Once", "price": "$149.00", "period": null, "trial_label": null, "save_percentage": null}]},
      {"type": "cta_button", "text": "Continue", "action": "purchase"},
      {"type": "social_proof", "text": "Loved by 2M people", "rating": 4.8},
      {"type": "guarantee", "text": "Cancel anytime"},
      {"type": "image", "url": "https://cdn.example.com/hero.png", "aspect_ratio": 1.5},
      {"type": "spacer", "height": 16},
      {"type": "testimonial", "quote": "Changed my mornings", "author": "Sam"},
      {"type": "countdown", "ends_at": "2024-02-01T00:00:00.000Z", "label": "Offer ends in"},
      {"type": "legal", "text": "Subscriptions renew automatically."},
      {"type": "divider"},
      {"type": "card", "sections": [{"type": "header", "title": "Inside a card"}]},
      {"type": "carousel", "sections": [{"type": "image", "url": "asset://slide1"}, {"type": "image", "url": "asset://slide2"}]},
      {"type": "timeline", "steps": [{"title": "Today", "description": "Full access"}, {"title": "Day 7", "description": "Trial ends"}]},
      {"type": "icon_grid", "items": [{"icon": "star", "label": "Pro tools"}]},
      {"type": "comparison_table", "columns": ["Free", "Premium"], "rows": [{"label": "Ads", "values": ["Yes", "No"]}]},
      {"type": "promo_input", "placeholder": "Promo code"},
      {"type": "toggle", "label": "Free trial", "product_ids": ["premium_annual", "premium_monthly"]},
      {"type": "reviews_carousel", "reviews": [{"author": "Ann", "text": "Great", "rating": 5}]},
      {"type": "sticky_footer", "sections": [{"type": "cta_button", "text": "Start"}]}
    ]}
    """#

    /// The start of a preview's note about something not drawn (the stylesheet names the class too).
    static let note = "<div class=\"pw-unknown\" role=\"note\">"

    static let live = PaywallPage.Mode.live(checkoutAction: "/web/checkout?p=built&v=b1",
                                            hiddenFields: [("paywall_id", "pw-built"), ("csrf", "t\"<ok>")])

    /// Parses JSON text; a broken fixture fails the test that uses it, not the run.
    static func json(_ text: String) -> JSONValue {
        (try? JSONValue(parsing: Array(text.utf8))) ?? .null
    }

    static func options(_ mode: PaywallPage.Mode, title: String = "Go Premium") -> PaywallPage.Options {
        PaywallPage.Options(title: title, lang: "en", nonce: "n0nce", mode: mode)
    }

    static func page(_ text: String, _ mode: PaywallPage.Mode = live) -> String {
        PaywallPage.render(json(text), options: options(mode))
    }

    /// A page of one section given as JSON text.
    static func page(section text: String, _ mode: PaywallPage.Mode = live) -> String {
        page("{\"layout\": \"stack\", \"sections\": [\(text)]}", mode)
    }

    /// How often `needle` occurs in `haystack`.
    static func count(_ needle: String, in haystack: String) -> Int {
        guard !needle.isEmpty else { return 0 }
        return haystack.split(separator: needle, omittingEmptySubsequences: false).count - 1
    }

    /// How many tags carry `checked` (the script's `:checked` selectors are not tags).
    static func checkedRadios(_ html: String) -> Int {
        tags(html).filter { $0.hasSuffix(" checked>") }.count
    }

    /// The page's tags (`<...>`), outside the one `<style>` and `<script>` elements' content.
    static func tags(_ html: String) -> [Substring] {
        var tags: [Substring] = []
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let tag = rest[open...close]
            tags.append(tag)
            rest = rest[rest.index(after: close)...]
            for element in ["style", "script"] where tag.hasPrefix("<\(element)") {
                if let end = rest.firstRange(of: "</\(element)>") { rest = rest[end.lowerBound...] }
            }
        }
        return tags
    }
}
