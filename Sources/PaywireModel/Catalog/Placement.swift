import PaywireWire

/// A localized remote config as authored: `data` is the JSON text exactly as written.
package struct RemoteConfig: Equatable, Sendable {
    package let lang: String
    package let data: String
}

/// What every A/B variation has, whatever it serves: an id and a share of the users.
package protocol WeightedVariation: Sendable {
    var variationId: String { get }
    var weight: Int { get }
    var remoteConfigs: [RemoteConfig] { get }
    /// The group this variation belongs to in a cross-placement test, if its audience runs one.
    var crossPlacementGroup: String? { get }
    /// The paywall it shows, for variations that show one.
    var servedPaywallId: String? { get }
    /// Reads one variation from its bundle object.
    static func load(_ fields: Fields) throws(WireError) -> Self
}

/// One A/B variation of a paywall placement: which paywall and products a bucket of users sees.
package struct Variation: WeightedVariation, Equatable {
    package let variationId: String
    /// The paywall it shows; empty for a holdout that names none.
    package let paywallId: String
    /// A holdout shows no paywall: its profiles are the experiment's control group.
    package var servedPaywallId: String? { holdout ? nil : paywallId }
    package let paywallName: String
    package let weight: Int
    package let products: [ProductReference]
    package var productIds: [String] { products.map { $0.vendorProductId } }
    package let remoteConfigs: [RemoteConfig]
    /// Whether a successful purchase dismisses the view (reason `purchased`).
    package var dismissOnPurchase = true
    /// Whether a restore that gives access dismisses the view (reason `restore_success`).
    package var dismissOnRestore = true
    package var postPurchase: PostPurchaseStep?
    /// The builder layout as authored; checked when a view is created.
    package var builder: JSONValue?
    package var crossPlacementGroup: String?
    /// `holdout: true`: weighted and bucketed like the others, but its profiles are shown
    /// nothing (`get_presentation` answers `holdout`), so they measure the paywall against none.
    package var holdout = false
}

/// One audience of a placement: who it is for (nil rule: everyone) and its own A/B test.
package struct Audience<V: WeightedVariation>: Sendable {
    package let name: String
    package let rule: AudienceRule?
    package let revision: Int
    package let abTestName: String
    package let placementAudienceVersionId: String
    /// When set, the variation group a profile gets here is kept for every placement in the test.
    package let crossPlacementTestId: String?
    package let variations: [V]
}

/// A placement (a place in the app where a paywall or an onboarding can appear) with its
/// ordered audiences: the first whose rule matches wins, the last is the default (it may have a
/// rule too: then a profile no rule matches is in no audience). `V` is what a variation serves.
/// A placement written without `audiences` is one default audience.
package struct Placement<V: WeightedVariation>: Sendable {
    package let developerId: String
    package let audiences: [Audience<V>]
    /// The locale whose localization answers when none answers the request's (before `en`).
    package let defaultLocale: String?
    /// How often and to whom its paywall may be presented (`get_presentation`).
    package var presentation = PresentationRules()

    /// The default audience (the last).
    package var defaultAudience: Audience<V>? { audiences.last }

    /// Reads and checks a placement from its bundle JSON (`section` is `placements` or
    /// `onboardings`). Errors are `invalid_fallback` with the JSON path of the first bad field,
    /// so an author can fix the file.
    package static func load(id: String, section: String, from value: JSONValue) throws(WireError) -> Placement<V> {
        let path = "\(section).\(id)"
        do throws(WireError) {
            let fields = try Fields(value, path: path)
            var audiences: [Audience<V>] = []
            if fields.optional("audiences") != nil {
                let list = try fields.objects("audiences")
                guard !list.isEmpty else { throw WireError.wrongParam(fields.fieldPath("audiences"), "a placement needs at least one audience") }
                for (index, audience) in list.enumerated() {
                    let isDefault = index == list.count - 1
                    audiences.append(try loadAudience(audience, isDefault: isDefault))
                }
            } else {
                audiences.append(try loadAudience(fields, isDefault: true))
            }
            let defaultLocale = try fields.optionalString("default_locale")
            if let defaultLocale, LanguageTag(defaultLocale) == nil {
                throw WireError.wrongParam(fields.fieldPath("default_locale"), "'\(defaultLocale)' is not a language tag like pt-BR")
            }
            var placement = Placement(developerId: id, audiences: audiences, defaultLocale: defaultLocale)
            placement.presentation = try PresentationRules.load(fields)
            return placement
        } catch {
            throw WireError(.invalidFallback, "the bundle's placement '\(id)' is invalid: \(error.message)", details: error.details)
        }
    }

    private static func loadAudience(_ fields: Fields, isDefault: Bool) throws(WireError) -> Audience<V> {
        let variations = try Audience.variations(try fields.objects("variations"), path: fields.fieldPath("variations")) { _, item throws(WireError) in
            try V.load(item)
        }
        var rule: AudienceRule?
        if let ruleValue = fields.optional("rule") {
            rule = try AudienceRule.load(ruleValue, path: fields.fieldPath("rule"))
        } else if !isDefault {
            throw WireError.wrongParam(fields.fieldPath("rule"), "every audience but the last needs a rule")
        }
        return Audience(
            name: try fields.optionalString("audience_name") ?? "All Users",
            rule: rule,
            revision: try fields.optionalInt("revision", in: 0...Int(Int32.max)) ?? 0,
            abTestName: try fields.optionalString("ab_test_name") ?? "",
            placementAudienceVersionId: try fields.identifier("placement_audience_version_id"),
            crossPlacementTestId: try fields.optionalString("cross_placement_test_id"),
            variations: variations)
    }
}

extension Audience {
    /// An audience's variations, each made by `read` from its object and position, checked by
    /// the rules every fallback format's variations follow: at least one, unique ids, weights
    /// summing to 100. `path` names the list in errors.
    static func variations(_ items: [Fields], path: String, read: (Int, Fields) throws(WireError) -> V) throws(WireError) -> [V] {
        guard !items.isEmpty else { throw WireError.wrongParam(path, "a placement needs at least one variation") }
        var variations: [V] = []
        var seenIds = Set<String>()
        for (index, item) in items.enumerated() {
            let variation = try read(index, item)
            guard seenIds.insert(variation.variationId).inserted else {
                throw WireError.wrongParam(item.fieldPath("variation_id"), "duplicate variation_id '\(variation.variationId)'")
            }
            variations.append(variation)
        }
        let total = variations.reduce(0) { $0 + $1.weight }
        guard total == 100 else {
            throw WireError.wrongParam(path, "variation weights must sum to 100, they sum to \(total)")
        }
        return variations
    }
}

extension Variation {
    package static func load(_ fields: Fields) throws(WireError) -> Variation {
        let holdout = try fields.optionalBool("holdout") ?? false
        var products: [ProductReference] = []
        let listed = holdout && fields.optional("products") == nil ? [] : try fields.array("products")
        for (index, element) in listed.enumerated() {
            let elementPath = "\(fields.fieldPath("products"))[\(index)]"
            switch element {
            case .string(let id) where !id.isEmpty: products.append(ProductReference(vendorProductId: id))
            case .object: products.append(try ProductReference(try Fields(element, path: elementPath)))
            default:
                throw WireError.wrongParam(elementPath, "expected a product id or {\"vendor_product_id\": ...}")
            }
        }
        var variation = Variation(
            variationId: try fields.identifier("variation_id"),
            paywallId: holdout ? try fields.optionalString("paywall_id") ?? "" : try fields.identifier("paywall_id"),
            paywallName: try fields.optionalString("paywall_name") ?? "",
            weight: try fields.int("weight", in: 0...100),
            products: products,
            remoteConfigs: try RemoteConfig.loadAll(fields),
            dismissOnPurchase: try fields.optionalBool("dismiss_on_purchase") ?? true,
            dismissOnRestore: try fields.optionalBool("dismiss_on_restore") ?? true,
            postPurchase: try fields.optionalObject("post_purchase").map { (step: Fields) throws(WireError) in try PostPurchaseStep.load(step) },
            builder: fields.optional("builder"),
            crossPlacementGroup: try fields.optionalString("cross_placement_group"))
        variation.holdout = holdout
        return variation
    }
}

extension RemoteConfig {
    /// The optional `remote_configs` list of a variation; `data` may be authored as a JSON string
    /// (kept as written) or an object (kept as compact JSON text).
    package static func loadAll(_ fields: Fields) throws(WireError) -> [RemoteConfig] {
        guard fields.optional("remote_configs") != nil else { return [] }
        var remoteConfigs: [RemoteConfig] = []
        for config in try fields.objects("remote_configs") { remoteConfigs.append(try load(config)) }
        return remoteConfigs
    }

    /// One `{lang, data}` object.
    package static func load(_ config: Fields) throws(WireError) -> RemoteConfig {
        let data: String
        switch config.object["data"] {
        case .string(let text)?: data = text
        case .object(let object)?: data = String(decoding: JSONWriter.encode(.object(object)), as: UTF8.self)
        default: throw WireError.wrongParam(config.fieldPath("data"), "expected a JSON string or an object")
        }
        return RemoteConfig(lang: try config.identifier("lang"), data: data)
    }
}
