import PaywireWire

/// The sections that are text only: a header, a line of social proof, a guarantee, a
/// testimonial, the legal small print.
extension Renderer {
    /// The first header's title is the page's one `<h1>`; every later one is an `<h2>`, so a
    /// screen reader's outline starts with what the paywall is about.
    mutating func header(_ fields: JSONObject) {
        let title = fields.text("title"), subtitle = fields.text("subtitle")
        guard title != nil || subtitle != nil else { return }
        out += "<header class=\"pw-header\">"
        if let title {
            let tag = headingGiven ? "h2" : "h1"
            headingGiven = true
            out += "<\(tag) class=\"pw-title\">\(HTMLText.escape(title))</\(tag)>"
        }
        if let subtitle { out += "<p class=\"pw-subtitle\">\(HTMLText.escape(subtitle))</p>" }
        out += "</header>"
    }

    /// A claim with an optional star rating: the stars are decoration, the number is read.
    mutating func socialProof(_ fields: JSONObject) {
        let text = fields.text("text"), rating = fields.number("rating")
        guard text != nil || rating != nil else { return }
        out += "<p class=\"pw-social\">"
        if let rating { out += Self.rating(rating) + " " }
        if let text { out += "<span class=\"pw-social-text\">\(HTMLText.escape(text))</span>" }
        out += "</p>"
    }

    mutating func guarantee(_ fields: JSONObject) {
        guard let text = fields.text("text") else { return }
        out += "<p class=\"pw-guarantee\">\(Self.icon(nil)) <span>\(HTMLText.escape(text))</span></p>"
    }

    mutating func testimonial(_ fields: JSONObject) {
        guard let quote = fields.text("quote") else { return }
        out += "<figure class=\"pw-testimonial\"><blockquote class=\"pw-quote\"><p>\(HTMLText.escape(quote))</p></blockquote>"
        if let author = fields.text("author") {
            out += "<figcaption class=\"pw-author\">\(HTMLText.escape(author))</figcaption>"
        }
        out += "</figure>"
    }

    mutating func legal(_ fields: JSONObject) {
        guard let text = fields.text("text") else { return }
        out += "<p class=\"pw-legal\">\(HTMLText.escape(text))</p>"
    }

    /// `★★★★☆ 4.2 out of 5`: the stars are hidden from screen readers, which read the number.
    static func rating(_ value: Double) -> String {
        let clamped = min(max(value, 0), 5)
        let filled = Int(clamped.rounded())
        let stars = String(repeating: "★", count: filled) + String(repeating: "☆", count: 5 - filled)
        return "<span class=\"pw-rating\"><span class=\"pw-stars\" aria-hidden=\"true\">\(stars)</span> "
            + "<span class=\"pw-rating-value\">\(ratingText(clamped))<span class=\"pw-visually-hidden\"> out of 5</span></span></span>"
    }

    /// A rating to one decimal without Foundation's formatters: `4.8`, `5`.
    static func ratingText(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// An icon: an image when it is a web URL, else a name (or an app asset) drawn as its first
    /// letter in a badge, because the names are the app's own icon set, which a browser lacks.
    /// Decorative either way: the text next to it says what it means.
    static func icon(_ name: String?) -> String {
        guard let name else { return "<span class=\"pw-icon pw-icon-mark\" aria-hidden=\"true\"></span>" }
        if HTMLText.isWebURL(name) {
            return "<img class=\"pw-icon\"\(HTMLText.attribute("src", name)) alt=\"\" width=\"24\" height=\"24\">"
        }
        let label = HTMLText.assetName(name) ?? name
        let initial = label.first { $0.isLetter || $0.isNumber }.map { String($0).uppercased() } ?? ""
        return "<span class=\"pw-icon\" aria-hidden=\"true\">\(HTMLText.escape(initial))</span>"
    }
}
