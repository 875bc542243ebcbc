import PaywireWire

/// The paywall builder configuration: a layout the host renders, authored as data on the
/// paywall (`builder`). The core checks it when a view is created, so every platform refuses
/// the same broken layout with the same JSON path, and computes what must be identical
/// everywhere: per-plan save percentages, prices and trial labels.
///
/// `{"layout": "stack" | "grid" | "carousel", "sections": [{"type": "<section>", ...}]}`.
/// Each section type's fields are listed in `PaywallBuilder.sectionRules(_:)` (and the README);
/// unknown fields are allowed, so a newer builder can add some without breaking older cores.
package enum PaywallBuilder {
    package static let layouts: Set<String> = ["stack", "grid", "carousel"]
    package static let planStyles: [String] = [
        "horizontal_cards", "vertical_stack", "toggle_switch", "segmented_control", "radio_list", "carousel",
        "comparison_grid", "pill_selector", "tier_blocks", "minimal_text", "featured_highlight", "accordion",
    ]
    /// Deepest nesting of sections inside sections (card, carousel, sticky footer).
    package static let maxNesting = 4

    /// What a field of a section must hold.
    package indirect enum Rule: Sendable {
        case text
        case optionalText
        case url
        case number(min: Double, max: Double)
        case optionalNumber(min: Double, max: Double)
        case date
        case oneOf([String])
        case optionalOneOf([String])
        case optionalBool
        case list(of: Rule, minCount: Int)
        case object([(String, Rule)])
        case sections
        case plans
        case productIds
    }

    /// The fields a section type has; nil for a type that does not exist. A function rather than
    /// a global table: the rules' indirect cases are boxes that a global would keep behind
    /// tagged pointers for the whole process, which memory checkers report as lost.
    package static func sectionRules(_ type: String) -> [(String, Rule)]? {
        switch type {
        case "header": return [("title", .text), ("subtitle", .optionalText)]
        case "features_list": return [("items", .list(of: .object([("text", .text), ("icon", .optionalText)]), minCount: 1))]
        case "plan_selection": return [("style", .oneOf(planStyles)), ("plans", .plans)]
        case "cta_button": return [("text", .text), ("action", .optionalOneOf(["purchase", "restore", "close", "open_url"]))]
        case "social_proof": return [("text", .text), ("rating", .optionalNumber(min: 0, max: 5))]
        case "guarantee": return [("text", .text)]
        case "image": return [("url", .url), ("aspect_ratio", .optionalNumber(min: 0.01, max: 100))]
        case "spacer": return [("height", .number(min: 0, max: 10_000))]
        case "testimonial": return [("quote", .text), ("author", .text)]
        case "countdown": return [("ends_at", .date), ("label", .optionalText)]
        case "legal": return [("text", .text)]
        case "divider": return []
        case "sticky_footer", "card", "carousel": return [("sections", .sections)]
        case "timeline": return [("steps", .list(of: .object([("title", .text), ("description", .optionalText)]), minCount: 1))]
        case "icon_grid": return [("items", .list(of: .object([("icon", .text), ("label", .text)]), minCount: 1))]
        case "comparison_table":
            return [("columns", .list(of: .text, minCount: 1)),
                    ("rows", .list(of: .object([("label", .text), ("values", .list(of: .text, minCount: 1))]), minCount: 1))]
        case "promo_input": return [("placeholder", .optionalText)]
        case "toggle": return [("label", .text), ("product_ids", .productIds)]
        case "reviews_carousel":
            return [("reviews", .list(of: .object([("author", .text), ("text", .text), ("rating", .number(min: 1, max: 5))]), minCount: 1))]
        default: return nil
        }
    }

    /// The first problem of a configuration, as a `rendering_failed` error whose
    /// `details.field` is the JSON path (`builder.sections[2].plans[0].product_id`); nil when valid.
    package static func validate(_ builder: JSONValue, productIds: [String]) -> WireError? {
        var checker = Checker(productIds: Set(productIds))
        checker.check(builder)
        return checker.problem
    }

    private struct Checker {
        let productIds: Set<String>
        var problem: WireError?

        mutating func fail(_ path: String, _ message: String) {
            guard problem == nil else { return }
            problem = WireError(.renderingFailed, "\(path): \(message)",
                                details: JSONObject([("field", .string(path)), ("underlying_error", .string(message))]))
        }

        mutating func check(_ builder: JSONValue) {
            guard case .object(let root) = builder else { return fail("builder", "expected an object") }
            guard case .string(let layout)? = root["layout"], PaywallBuilder.layouts.contains(layout) else {
                return fail("builder.layout", "expected one of: carousel, grid, stack")
            }
            checkSections(root["sections"], path: "builder.sections", depth: 0)
        }

        mutating func checkSections(_ value: JSONValue?, path: String, depth: Int) {
            guard depth < PaywallBuilder.maxNesting else { return fail(path, "sections nest deeper than \(PaywallBuilder.maxNesting)") }
            guard case .array(let sections)? = value, !sections.isEmpty else { return fail(path, "expected a non-empty list of sections") }
            for (index, section) in sections.enumerated() where problem == nil {
                let sectionPath = "\(path)[\(index)]"
                guard case .object(let fields) = section else { return fail(sectionPath, "expected a section object") }
                guard case .string(let type)? = fields["type"] else { return fail("\(sectionPath).type", "is required") }
                guard let rules = PaywallBuilder.sectionRules(type) else {
                    return fail("\(sectionPath).type", "'\(type)' is not a section type")
                }
                for (name, rule) in rules where problem == nil {
                    check(fields[name], rule, path: "\(sectionPath).\(name)", depth: depth)
                }
            }
        }

        mutating func check(_ value: JSONValue?, _ rule: Rule, path: String, depth: Int) {
            let present = value != nil && value != .null
            switch rule {
            case .text:
                guard case .string(let text)? = value, !text.isEmpty else { return fail(path, "expected non-empty text") }
            case .optionalText:
                if present, case .string = value {} else if present { fail(path, "expected text") }
            case .url:
                guard case .string(let text)? = value, PaywallBuilder.isAssetURL(text) else {
                    return fail(path, "expected an https://, http:// or asset:// URL")
                }
            case .number(let min, let max), .optionalNumber(let min, let max):
                if case .optionalNumber = rule, !present { return }
                guard case .number(let number)? = value, let double = number.doubleValue, double >= min, double <= max else {
                    return fail(path, "expected a number from \(Self.format(min)) to \(Self.format(max))")
                }
            case .date:
                guard case .string(let text)? = value, ISODate.parse(text) != nil else {
                    return fail(path, "expected an ISO 8601 UTC time like 2025-01-01T00:00:00.000Z")
                }
            case .oneOf(let allowed), .optionalOneOf(let allowed):
                if case .optionalOneOf = rule, !present { return }
                guard case .string(let text)? = value, allowed.contains(text) else {
                    return fail(path, "expected one of: \(allowed.joined(separator: ", "))")
                }
            case .optionalBool:
                if present, case .bool = value {} else if present { fail(path, "expected true or false") }
            case .list(let element, let minCount):
                guard case .array(let items)? = value, items.count >= minCount else {
                    return fail(path, "expected a list of at least \(minCount)")
                }
                for (index, item) in items.enumerated() where problem == nil {
                    check(item, element, path: "\(path)[\(index)]", depth: depth)
                }
            case .object(let rules):
                guard case .object(let fields)? = value else { return fail(path, "expected an object") }
                for (name, fieldRule) in rules where problem == nil {
                    check(fields[name], fieldRule, path: "\(path).\(name)", depth: depth)
                }
            case .sections:
                checkSections(value, path: path, depth: depth + 1)
            case .plans:
                checkPlans(value, path: path, depth: depth)
            case .productIds:
                guard case .array(let ids)? = value, ids.count == 2 else { return fail(path, "expected the two products the toggle switches between") }
                for (index, id) in ids.enumerated() where problem == nil {
                    guard case .string(let productId) = id, productIds.contains(productId) else {
                        return fail("\(path)[\(index)]", "expected a product of this paywall")
                    }
                }
            }
        }

        /// A plan selection's plans: each a product of this paywall, once.
        mutating func checkPlans(_ value: JSONValue?, path: String, depth: Int) {
            guard case .array(let plans)? = value, !plans.isEmpty else { return fail(path, "expected a non-empty list of plans") }
            var seen = Set<String>()
            for (index, plan) in plans.enumerated() where problem == nil {
                let planPath = "\(path)[\(index)]"
                guard case .object(let fields) = plan else { return fail(planPath, "expected a plan object") }
                guard case .string(let productId)? = fields["product_id"], productIds.contains(productId) else {
                    return fail("\(planPath).product_id", "expected a product of this paywall")
                }
                guard seen.insert(productId).inserted else { return fail("\(planPath).product_id", "'\(productId)' appears twice") }
                check(fields["badge"], .optionalText, path: "\(planPath).badge", depth: depth)
                check(fields["trial_label"], .optionalText, path: "\(planPath).trial_label", depth: depth)
                check(fields["highlighted"], .optionalBool, path: "\(planPath).highlighted", depth: depth)
            }
        }

        private static func format(_ value: Double) -> String {
            value.rounded() == value ? String(Int(value)) : String(value)
        }
    }

    // MARK: - Computed values

    /// The configuration with its text tags filled (`TextTagResolver`: a plan's texts are about
    /// its product) and each plan enriched: `price` (as the store writes it), `period`,
    /// `trial_label` (as authored, else from the intro offer), `save_percentage` against the plan
    /// with the highest price per month (null for plans without a period or when it saves
    /// nothing). Returns the tags left as written too.
    package static func resolve(_ builder: JSONValue, productIds: [String], products: [String: StoreProduct]) -> (JSONValue, [TextTagProblem]) {
        let tags = TextTagResolver(paywallProductIds: productIds, described: productIds.compactMap { products[$0] })
        let (filled, problems) = tags.fill(builder, product: nil)
        guard case .object(var root) = filled, let sections = root["sections"] else { return (filled, problems) }
        root.set("sections", resolveSections(sections, products: products, dearest: dearestPerMonth(Array(products.values))))
        return (.object(root), problems)
    }

    private static func resolveSections(_ value: JSONValue, products: [String: StoreProduct], dearest: StoreProduct?) -> JSONValue {
        guard case .array(let sections) = value else { return value }
        return .array(sections.map { section in
            guard case .object(var fields) = section else { return section }
            if case .array(let nested)? = fields["sections"] {
                fields.set("sections", resolveSections(.array(nested), products: products, dearest: dearest))
            }
            if case .array(let plans)? = fields["plans"] {
                fields.set("plans", .array(plans.map { plan in
                    guard case .object(var planFields) = plan, case .string(let id)? = planFields["product_id"],
                          let product = products[id] else { return plan }
                    planFields.set("price", .string(product.price.localizedString))
                    planFields.set("period", product.period.map { .string($0.localized) } ?? .null)
                    if planFields["trial_label"] == nil || planFields["trial_label"] == .null {
                        planFields.set("trial_label", trialLabel(product).map { .string($0) } ?? .null)
                    }
                    planFields.set("save_percentage", savePercentage(product, against: dearest).map { .number(JSONNumber($0)) } ?? .null)
                    return .object(planFields)
                }))
            }
            return .object(fields)
        })
    }

    /// The product with the highest price per month (`PeriodPricing`), or nil without one
    /// that has a period.
    package static func dearestPerMonth(_ products: [StoreProduct]) -> StoreProduct? {
        var dearest: (product: StoreProduct, monthly: (WideInt, WideInt))?
        for product in products {
            guard let period = product.period, let amount = DecimalAmount(product.price.amount),
                  let monthly = PeriodPricing.monthly(amount, every: period) else { continue }
            if let current = dearest, PeriodPricing.isLess(current.monthly, than: monthly) != true { continue }
            dearest = (product, monthly)
        }
        return dearest?.product
    }

    /// Whole percent saved per month against the dearest plan, rounded down (a badge must not
    /// promise more than the store charges); nil when nothing is saved.
    package static func savePercentage(_ product: StoreProduct, against dearest: StoreProduct?) -> Int? {
        guard let dearest, let period = product.period, let dearestPeriod = dearest.period,
              let amount = DecimalAmount(product.price.amount), let dearestAmount = DecimalAmount(dearest.price.amount),
              let percent = PeriodPricing.discountPercent(amount, every: period, against: dearestAmount, every: dearestPeriod),
              percent > 0 else { return nil }
        return percent
    }

    /// `1 week free`, `3 months for $9.99`, from the intro offer.
    package static func trialLabel(_ product: StoreProduct) -> String? {
        guard let offer = product.introOffer else { return nil }
        switch offer.paymentMode {
        case .free_trial: return "\(offer.period.localized) free"
        case .pay_up_front: return "\(offer.period.localized) for \(offer.price.localizedString)"
        case .pay_as_you_go: return "\(offer.price.localizedString)/\(offer.period.unit.rawValue) for \(offer.numberOfPeriods) \(offer.period.unit.rawValue)\(offer.numberOfPeriods == 1 ? "" : "s")"
        }
    }
}
