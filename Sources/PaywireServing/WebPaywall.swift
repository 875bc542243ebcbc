import PaywireModel
import PaywireWire

/// A placement's paywall as a browser is shown it. The server chooses it by the rules a device
/// applies (the first audience whose rule matches, the MD5 bucket of the profile, the locale's
/// remote config), and resolves its builder layout as `paywall_view_get_configuration` does, so
/// a web visitor and an app user with the same profile id meet the same variation and read the
/// same texts. In a module of its own, which only the server links: libpaywire never carries it.
public struct WebPaywall: Sendable {
    /// The exposure a showing records (`paywall_shown`); a holdout's says so.
    public let exposure: Exposure
    /// The variation is a holdout: its profiles are shown nothing.
    public let holdout: Bool
    public let paywallName: String
    /// The variation's products, in its order.
    public let productIds: [String]
    /// The builder layout with its text tags filled and its plans priced: the authored one, or
    /// for a paywall without one, its name over its products as a list and a Continue button
    /// (`defaultLayout`); nil for a holdout.
    public let configuration: JSONValue?
    /// The language the page speaks: the remote config's that matched, else the request's.
    public let language: String

    /// What audience rules see of a web visitor: the request's language and `platform: web`.
    /// A visitor has no custom attributes or install age; access levels are the profile's.
    public struct Visitor: Sendable {
        public let profileId: String
        public let locale: String?
        public let activeAccessLevels: Set<String>

        public init(profileId: String, locale: String?, activeAccessLevels: Set<String>) {
            self.profileId = profileId
            self.locale = locale
            self.activeAccessLevels = activeAccessLevels
        }
    }

    /// The platform web exposures and audiences name.
    public static let platform = "web"

    /// Chooses and resolves. `variationId` forces a variation (an operator's preview: no
    /// bucketing, and the exposure says `forced`). Nil when no audience's rule matches.
    static func choose(_ placement: Placement<Variation>, for visitor: Visitor, variationId: String?, responseCreatedAt: Int,
                       products: [StoreProduct]) throws(WireError) -> WebPaywall? {
        let context = AudienceContext(customAttributes: JSONObject(), language: LocaleMatch.language(of: visitor.locale),
                                      platform: platform, activeAccessLevels: visitor.activeAccessLevels)
        guard let selection = try Selection(placement: placement, profileId: visitor.profileId, locale: visitor.locale,
                                            responseCreatedAt: responseCreatedAt, context: context,
                                            choice: variationId.map { .forced(variationId: $0) } ?? .byAudience) else { return nil }
        let variation = selection.variation
        let exposure = variation.holdout ? Exposure(holdout: selection) : Exposure(
            placementId: placement.developerId, audienceName: selection.audience.name, revision: selection.audience.revision,
            abTestName: selection.audience.abTestName, variationId: variation.variationId, paywallId: variation.paywallId,
            paywallName: variation.paywallName.isEmpty ? nil : variation.paywallName,
            placementAudienceVersionId: selection.audience.placementAudienceVersionId, holdout: false, forced: selection.forced)
        var configuration: JSONValue?
        if !variation.holdout {
            let builder = variation.builder ?? defaultLayout(title: variation.paywallName, productIds: variation.productIds)
            if let problem = PaywallBuilder.validate(builder, productIds: variation.productIds) { throw problem }
            let byId = Dictionary(products.map { ($0.vendorProductId, $0) }, uniquingKeysWith: { first, _ in first })
            configuration = PaywallBuilder.resolve(builder, productIds: variation.productIds, products: byId).0
        }
        return WebPaywall(exposure: exposure, holdout: variation.holdout, paywallName: variation.paywallName,
                          productIds: variation.productIds, configuration: configuration,
                          language: selection.remoteConfig?.lang ?? LocaleMatch.language(of: visitor.locale))
    }
}

extension WebPaywall {
    /// The page of a paywall authored without a builder layout: its name as the title, its
    /// products as a list of plans, and a Continue button.
    static func defaultLayout(title: String, productIds: [String]) -> JSONValue {
        var sections: [JSONValue] = [.object(JSONObject([("type", .string("header")), ("title", .string(title.isEmpty ? "Premium" : title))]))]
        if !productIds.isEmpty {
            let plans = productIds.map { JSONValue.object(JSONObject([("product_id", .string($0))])) }
            sections.append(.object(JSONObject([("type", .string("plan_selection")), ("style", .string("vertical_stack")),
                                                ("plans", .array(plans))])))
            sections.append(.object(JSONObject([("type", .string("cta_button")), ("text", .string("Continue")),
                                                ("action", .string("purchase"))])))
        }
        return .object(JSONObject([("layout", .string("stack")), ("sections", .array(sections))]))
    }
}

/// The builder's vocabulary for what draws it (the server's renderer, its gallery): the model
/// keeps the rules package-wide, and this is their public face.
public enum PaywallBuilderNames {
    /// Every section type, in the order the reference lists them.
    public static let sectionTypes: [String] = [
        "header", "features_list", "plan_selection", "cta_button", "social_proof", "guarantee", "image", "spacer",
        "testimonial", "countdown", "legal", "divider", "sticky_footer", "card", "carousel", "timeline", "icon_grid",
        "comparison_table", "promo_input", "toggle", "reviews_carousel",
    ]

    /// Every plan style of a `plan_selection`.
    public static var planStyles: [String] { PaywallBuilder.planStyles }

    /// The layouts of a configuration's root.
    public static var layouts: [String] { PaywallBuilder.layouts.sorted() }
}

/// The placements a server draws paywalls from itself (the web paywall, the dashboard's
/// previews, the docs' gallery), each read once when the server starts: a page chooses from
/// them without parsing anything again.
public struct WebCatalog: Sendable {
    private let responseCreatedAt: Int
    private let placements: [String: Placement<Variation>]

    /// The bundle's placements, read from the answers it made of them (checked when it loaded).
    public init(_ bundle: ServableBundle) throws(WireError) {
        var placements: [String: Placement<Variation>] = [:]
        for (placementId, served) in bundle.placements {
            placements[placementId] = try Self.placement(placementId, from: served.body)
        }
        self.responseCreatedAt = bundle.responseCreatedAt
        self.placements = placements
    }

    /// The paywall of `placementId` a web visitor is shown (`WebPaywall`); nil for a placement
    /// the bundle does not have or whose audiences all refuse the visitor. A builder layout
    /// that does not check throws the device's `rendering_failed`, naming the field.
    public func webPaywall(placementId: String, for visitor: WebPaywall.Visitor, variationId: String? = nil,
                           products: [StoreProduct]) throws(WireError) -> WebPaywall? {
        guard let placement = placements[placementId] else { return nil }
        return try WebPaywall.choose(placement, for: visitor, variationId: variationId, responseCreatedAt: responseCreatedAt,
                                     products: products)
    }

    /// The variation ids of a placement (every audience's, in order), for previews.
    public func variationIds(of placementId: String) -> [String] {
        placements[placementId]?.audiences.flatMap { $0.variations.map(\.variationId) } ?? []
    }

    /// The languages a variation's remote configs are written in, in the bundle's order (empty
    /// for an unknown variation): the locales an operator can preview it in.
    public func languages(of placementId: String, variationId: String) -> [String] {
        let variations = placements[placementId]?.audiences.flatMap(\.variations) ?? []
        return variations.first { $0.variationId == variationId }?.remoteConfigs.map(\.lang) ?? []
    }

    private static func placement(_ placementId: String, from body: [UInt8]) throws(WireError) -> Placement<Variation> {
        let answer: JSONValue
        do {
            answer = try JSONValue(parsing: body)
        } catch {
            throw WireError(.invalidFallback, "placement '\(placementId)' is not JSON")
        }
        guard case .object(let object) = answer, let placement = object["placement"] else {
            throw WireError(.invalidFallback, "placement '\(placementId)' has no placement")
        }
        return try Placement<Variation>.load(id: placementId, section: "placements", from: placement)
    }
}
