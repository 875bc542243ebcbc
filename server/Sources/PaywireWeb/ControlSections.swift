import PaywireWire

/// The sections a buyer acts on: the call to action, a promo code, a two-product toggle and a
/// countdown. Every control is a native form control with a label, so it works with the
/// keyboard and without JavaScript.
extension Renderer {
    /// `purchase` (or no action) submits the page's form; in a preview it is an inert button.
    /// `restore` and `close` mean something only inside an app, so the web leaves them out.
    mutating func ctaButton(_ fields: JSONObject) {
        let text = HTMLText.escape(fields.text("text") ?? "Continue")
        switch fields.text("action") {
        case nil, "purchase":
            out += live ? "<button class=\"pw-cta\" type=\"submit\">\(text)</button>"
                        : "<button class=\"pw-cta\" type=\"button\" disabled>\(text)</button>"
        case "restore", "close":
            out += "<!-- a restore or close button is not drawn: a browser has no store purchases to restore and no app screen to close -->"
        case "open_url":
            guard let url = fields.text("url"), HTMLText.isWebURL(url) else {
                return omitted("A link button without a web URL is not drawn.", comment: "a link button without a web URL is left out")
            }
            out += live ? "<a class=\"pw-cta pw-cta-link\"\(HTMLText.attribute("href", url)) rel=\"noopener noreferrer\">\(text)</a>"
                        : "<button class=\"pw-cta pw-cta-link\" type=\"button\" disabled>\(text)</button>"
        default:
            omitted("A button with an unknown action is not drawn.", comment: "a button with an unknown action is left out")
        }
    }

    /// On the web the payment page takes a promotion code (the checkout lets Stripe ask for
    /// one), so a live page says where to enter it rather than draw a field nothing reads; a
    /// preview draws the field as the app would.
    mutating func promoInput(_ fields: JSONObject) {
        if live {
            out += "<p class=\"pw-promo\">Have a promo code? Enter it on the payment page.</p>"
            return
        }
        let label = fields.text("placeholder") ?? "Promo code"
        out += "<label class=\"pw-promo\"><span class=\"pw-promo-label\">\(HTMLText.escape(label))</span>"
        out += "<input class=\"pw-input\" type=\"text\" name=\"promo_code\" autocomplete=\"off\" autocapitalize=\"characters\" spellcheck=\"false\" maxlength=\"64\" disabled></label>"
    }

    /// Two radios of the page's `product_id` group, "On" choosing the first product and "Off" the
    /// second; the script turns them into one switch. Without both products there is nothing to
    /// switch between, and the toggle is left out.
    mutating func toggle(_ fields: JSONObject) {
        let products = fields.texts("product_ids")
        guard let on = products.first, let off = products.dropFirst().first else {
            return omitted("A toggle without its two products is not drawn.", comment: "a toggle without its two products is left out")
        }
        let label = fields.text("label") ?? ""
        out += "<fieldset class=\"pw-toggle\" data-pw-toggle><legend class=\"pw-toggle-legend\">\(HTMLText.escape(label))</legend><div class=\"pw-toggle-options\">"
        for (product, state) in [(on, "On"), (off, "Off")] {
            out += "<label class=\"pw-toggle-option\">\(radio(product))<span>\(state)</span>"
            if let plan = index.plans[product], let price = Self.priceLine(plan) {
                out += " <span class=\"pw-toggle-price\">\(HTMLText.escape(price))</span>"
            }
            out += "</label>"
        }
        out += "</div></fieldset>"
    }

    /// The end time as a machine-readable `<time>` with a readable UTC fallback; the script
    /// turns it into the time left and keeps it ticking.
    mutating func countdown(_ fields: JSONObject) {
        let label = fields.text("label")
        let end = fields.text("ends_at").flatMap { ISODate.parse($0) }
        guard label != nil || end != nil else { return }
        out += "<p class=\"pw-countdown\">"
        if let label { out += "<span class=\"pw-countdown-label\">\(HTMLText.escape(label))</span> " }
        if let end {
            let iso = ISODate.format(milliseconds: end)
            let readable = "\(iso.prefix(10)) \(iso.dropFirst(11).prefix(5)) UTC"
            out += "<time class=\"pw-countdown-time\"\(HTMLText.attribute("datetime", iso)) data-pw-ends=\"\(end)\">\(HTMLText.escape(readable))</time>"
        }
        out += "</p>"
    }

    /// One radio of the page's `product_id` group. Only the first radio of the initial product
    /// is checked, so the page never asks the browser to check two of one group.
    mutating func radio(_ product: String, extraClass: String = "") -> String {
        var html = "<input class=\"pw-radio\(extraClass)\" type=\"radio\" name=\"product_id\"\(HTMLText.attribute("value", product))"
        if !checkedGiven, product == index.initialProduct {
            checkedGiven = true
            html += " checked"
        }
        return html + ">"
    }
}
