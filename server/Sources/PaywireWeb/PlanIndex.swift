import PaywireWire

/// What the page must know about the plans before it draws the first control: which product
/// starts selected, and each product's price for the controls (a toggle) that only name ids.
struct PlanIndex {
    /// The product whose radio starts checked: the first highlighted plan of the first plan
    /// selection, else its first plan, else a toggle's first product. One for the whole page,
    /// because every plan control is one radio group (`product_id`) of one form.
    private(set) var initialProduct: String?
    /// The first plan object seen for each product id.
    private(set) var plans: [String: JSONObject] = [:]

    init(_ sections: [JSONValue]) {
        scan(sections, depth: 0)
    }

    private mutating func scan(_ sections: [JSONValue], depth: Int) {
        guard depth < Renderer.maxNesting else { return }
        for case .object(let section) in sections {
            switch section.text("type") {
            case "plan_selection":
                let plans = section.objects("plans").filter { $0.text("product_id") != nil }
                for plan in plans {
                    if let id = plan.text("product_id"), self.plans[id] == nil { self.plans[id] = plan }
                }
                if initialProduct == nil {
                    initialProduct = (plans.first { $0.flag("highlighted") } ?? plans.first)?.text("product_id")
                }
            case "toggle":
                if initialProduct == nil { initialProduct = section.texts("product_ids").first }
            case "card", "carousel", "sticky_footer":
                scan(section.list("sections"), depth: depth + 1)
            default:
                continue
            }
        }
    }
}
