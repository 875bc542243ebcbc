import PaywireWire

/// A plan selection: every style is the same group of labelled radios (`product_id`) inside a
/// fieldset, so choosing works with the keyboard and without JavaScript; the style is a class
/// the stylesheet draws (cards, pills, a list, a grid ...), and the selected look is CSS
/// `:checked`. Only two styles change the markup: `featured_highlight` puts the highlighted plan
/// first (reordering with CSS would break the reading and tab order), and `comparison_grid`
/// keeps an empty cell for a missing value so the rows line up across plans.
extension Renderer {
    mutating func planSelection(_ fields: JSONObject) {
        let authored = fields.text("style")
        let style = authored.flatMap { PaywallPage.planStyles.contains($0) ? $0 : nil } ?? "vertical_stack"
        if let authored, authored != style {
            omitted("Plan style '\(authored)' is not drawn; its plans are shown as a list.",
                    comment: "an unknown plan style is drawn as a list")
        }
        let all = fields.objects("plans")
        var plans = all.filter { $0.text("product_id") != nil }
        if plans.count < all.count {
            omitted("A plan without a product_id is not drawn.", comment: "a plan without a product id cannot be bought and is left out")
        }
        guard !plans.isEmpty else { return }
        if style == "featured_highlight", let featured = plans.firstIndex(where: { $0.flag("highlighted") }), featured > 0 {
            plans.insert(plans.remove(at: featured), at: 0)
        }
        out += "<fieldset class=\"pw-plans pw-plans-\(style)\"><legend class=\"pw-visually-hidden\">Choose a plan</legend><div class=\"pw-plan-list\">"
        for plan in plans { self.plan(plan, alignRows: style == "comparison_grid") }
        out += "</div></fieldset>"
    }

    /// One plan: its radio, then a body the stylesheet draws as selected when the radio is checked.
    private mutating func plan(_ plan: JSONObject, alignRows: Bool) {
        let product = plan.text("product_id") ?? ""
        out += "<label class=\"pw-plan\(plan.flag("highlighted") ? " pw-plan-highlighted" : "")\">"
        out += radio(product)
        out += "<span class=\"pw-plan-body\">"
        if let badge = plan.text("badge") {
            out += "<span class=\"pw-badge\">\(HTMLText.escape(badge))</span>"
        } else if alignRows {
            out += "<span class=\"pw-badge pw-empty\"></span>"
        }
        out += "<span class=\"pw-plan-head\">"
        if let price = plan.text("price") {
            out += "<span class=\"pw-plan-price\">\(HTMLText.escape(price))</span>"
            out += " <span class=\"pw-plan-period\">\(HTMLText.escape(Self.periodText(plan)))</span>"
        } else {
            // Not resolved (a draft in preview): the product id at least says which plan it is.
            out += "<span class=\"pw-plan-name\">\(HTMLText.escape(product))</span>"
        }
        out += "</span><span class=\"pw-plan-details\">"
        detail("pw-plan-trial", plan.text("trial_label"), alignRows: alignRows)
        detail("pw-plan-save", plan.integer("save_percentage").flatMap { $0 > 0 ? "Save \($0)%" : nil }, alignRows: alignRows)
        out += "</span></span></label>"
    }

    private mutating func detail(_ className: String, _ text: String?, alignRows: Bool) {
        if let text {
            out += "<span class=\"\(className)\">\(HTMLText.escape(text))</span>"
        } else if alignRows {
            out += "<span class=\"\(className) pw-empty\"></span>"
        }
    }

    /// `/ 1 month` for a subscription, `one-time` for a product without a period.
    static func periodText(_ plan: JSONObject) -> String {
        plan.text("period").map { "/ \($0)" } ?? "one-time"
    }

    /// `$9.99 / 1 month`, for controls that name a product but do not draw its plan.
    static func priceLine(_ plan: JSONObject) -> String? {
        plan.text("price").map { "\($0) \(periodText(plan))" }
    }
}
