import PaywireWire

/// The document around the sections: head, the one stylesheet and script, the form of a live
/// page, and the layout's container. Top-level sticky footers are drawn after the other
/// sections, where they belong in the reading order of a page that keeps them in view.
enum Document {
    static func render(_ configuration: JSONValue, options: PaywallPage.Options) -> String {
        var root = JSONObject()
        if case .object(let object) = configuration { root = object }
        let layout = root.text("layout").flatMap { PaywallPage.layouts.contains($0) ? $0 : nil } ?? "stack"
        let all = root.list("sections")
        let footers = all.filter { Self.isFooter($0) }
        let body = all.filter { !Self.isFooter($0) }

        var live = false
        if case .live = options.mode { live = true }
        var renderer = Renderer(live: live, index: PlanIndex(all))
        if all.isEmpty {
            renderer.omitted("This configuration has no sections to draw.", comment: "the configuration has no sections")
        }
        renderer.sections(body, depth: 0)
        let sections = renderer.out
        renderer.out = ""
        for footer in footers { renderer.section(footer, depth: 0) }
        let footer = renderer.out
        // One <h1> always: the first header's title, else the page title for screen readers.
        let heading = renderer.headingGiven ? "" : "<h1 class=\"pw-visually-hidden\">\(HTMLText.escape(options.title))</h1>"

        var html = head(options)
        html += "<body>" + (options.seen?.element ?? "") + formStart(options.mode)
        html += "<main class=\"pw-page pw-layout-\(layout)\">" + heading
        html += layout == "carousel"
            ? "<div class=\"pw-sections\" role=\"region\" aria-roledescription=\"carousel\"\(HTMLText.attribute("aria-label", options.title)) tabindex=\"0\">"
            : "<div class=\"pw-sections\">"
        html += sections + "</div>" + footer + "</main>"
        html += (live ? "</form>" : "</div>")
        html += "<script\(HTMLText.attribute("nonce", options.nonce))>\(Script.js)\(options.seen == nil ? "" : Script.seen)</script></body></html>\n"
        return html
    }

    private static func isFooter(_ section: JSONValue) -> Bool {
        guard case .object(let fields) = section else { return false }
        return fields.text("type") == "sticky_footer"
    }

    private static func head(_ options: PaywallPage.Options) -> String {
        let lang = options.lang.isEmpty ? "en" : options.lang
        return "<!DOCTYPE html>\n<html\(HTMLText.attribute("lang", lang))><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<title>\(HTMLText.escape(options.title))</title>"
            + "<style\(HTMLText.attribute("nonce", options.nonce))>\(Stylesheet.css)</style></head>"
    }

    /// A live page is one form, so buying works without JavaScript: the chosen `product_id`
    /// radio, the promo code and the caller's hidden fields post to the checkout. A preview has
    /// no form at all, so nothing in it can post anywhere.
    private static func formStart(_ mode: PaywallPage.Mode) -> String {
        switch mode {
        case .live(let action, let hiddenFields):
            var html = "<form class=\"pw-form\" method=\"post\"\(HTMLText.attribute("action", action))>"
            for (name, value) in hiddenFields {
                html += "<input type=\"hidden\"\(HTMLText.attribute("name", name))\(HTMLText.attribute("value", value))>"
            }
            return html
        case .preview:
            return "<div class=\"pw-form\">"
        }
    }
}
