import PaywireWire

/// What a web paywall can sell: the plans whose product has a Stripe price. Pure.
enum WebPlans {
    /// The configuration without plans Stripe cannot charge for (nor a toggle between two
    /// products one of which it cannot), and without a plan selection left with no plan.
    static func sellable(_ configuration: JSONValue, prices: [String: String]) -> JSONValue {
        guard case .object(var root) = configuration, case .array(let sections)? = root["sections"] else { return configuration }
        root.set("sections", .array(filter(sections, prices: prices, depth: 0)))
        return .object(root)
    }

    private static func filter(_ sections: [JSONValue], prices: [String: String], depth: Int) -> [JSONValue] {
        sections.compactMap { section in
            guard case .object(var fields) = section else { return section }
            if depth < 4, case .array(let nested)? = fields["sections"] {
                fields.set("sections", .array(filter(nested, prices: prices, depth: depth + 1)))
            }
            if case .array(let plans)? = fields["plans"] {
                let kept = plans.filter { plan in plan["product_id"]?.asString.map { prices[$0] != nil } ?? false }
                if kept.isEmpty { return nil }
                fields.set("plans", .array(kept))
            }
            if fields["type"]?.asString == "toggle", case .array(let ids)? = fields["product_ids"],
               !ids.allSatisfy({ $0.asString.map { prices[$0] != nil } ?? false }) {
                return nil
            }
            return .object(fields)
        }
    }
}
