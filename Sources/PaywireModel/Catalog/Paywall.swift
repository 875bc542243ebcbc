import PaywireWire

/// A paywall as served to the host: one placement's chosen variation, localized.
///
/// Immutable once built; the client encodes it once and hands out the same bytes.
package struct Paywall: Sendable {
    package let selection: Selection<Variation>
    /// Whether the operator's signature covers the placement it came from; nil when nothing
    /// was asked (`response_verification` disabled): then the member is not written.
    package let verification: Verification?

    package init(selection: Selection<Variation>, verification: Verification? = nil) {
        self.selection = selection
        self.verification = verification
    }

    /// The wire form (`#/$defs/paywall` in the schema).
    package func write(to writer: inout JSONWriter) {
        let variation = selection.variation
        writer.object { writer in
            selection.writePlacement(to: &writer)
            writer.member("paywall_id", variation.paywallId)
            writer.member("paywall_name", variation.paywallName)
            writer.member("variation_id", variation.variationId)
            // Only when forced: a paywall chosen for the profile keeps its shape byte for byte.
            if selection.forced { writer.member("forced", true) }
            selection.writeRemoteConfig(to: &writer)
            writer.member("dismiss_on_purchase", variation.dismissOnPurchase)
            writer.member("dismiss_on_restore", variation.dismissOnRestore)
            writer.key("post_purchase")
            if let step = variation.postPurchase { step.write(to: &writer) } else { writer.null() }
            writer.member("builder", variation.builder ?? .null)
            writer.key("products")
            writer.array { writer in
                for product in variation.products { product.write(to: &writer) }
            }
            selection.writeVersionAndLocale(to: &writer)
            if let verification { writer.member("verification", verification.rawValue) }
        }
    }
}

/// What `get_paywall_products`, `create_paywall_view` and `log_show_paywall` need from a paywall
/// the host hands back.
package struct PaywallReference: Equatable, Sendable {
    package let placementId: String
    package let paywallName: String
    package let variationId: String
    package let abTestName: String
    package let products: [ProductReference]
    package var productIds: [String] { products.map { $0.vendorProductId } }
    /// The offer each product is sold with, where the paywall names one (Google Play).
    package var offerIds: [String: String] {
        var ids: [String: String] = [:]
        for product in products { if let offerId = product.offerId { ids[product.vendorProductId] = offerId } }
        return ids
    }
    package let dismissOnPurchase: Bool
    package let dismissOnRestore: Bool
    package let postPurchase: PostPurchaseStep?
    package let builder: JSONValue?
    /// The localized remote config, as the host's copy carries it.
    package let remoteConfig: RemoteConfig?
    /// The variation was forced by a debug override: its exposure is marked `forced`.
    package let forced: Bool
    /// The rest of the analytics context, when the host handed it back (exposures carry it).
    package let audienceName: String?
    package let revision: Int?
    package let placementAudienceVersionId: String?
    package let paywallId: String?

    /// The reference a served paywall makes: what the host would hand back of it.
    package init(_ paywall: Paywall) {
        let (placement, audience, variation) = (paywall.selection.placement, paywall.selection.audience, paywall.selection.variation)
        placementId = placement.developerId
        abTestName = audience.abTestName
        audienceName = audience.name
        revision = audience.revision
        placementAudienceVersionId = audience.placementAudienceVersionId
        paywallId = variation.paywallId
        paywallName = variation.paywallName
        variationId = variation.variationId
        products = variation.products
        dismissOnPurchase = variation.dismissOnPurchase
        dismissOnRestore = variation.dismissOnRestore
        postPurchase = variation.postPurchase
        builder = variation.builder == .null ? nil : variation.builder
        remoteConfig = paywall.selection.remoteConfig
        forced = paywall.selection.forced
    }

    /// Reads the fields the core needs from a round-tripped paywall object; extra fields are ignored.
    package init(_ fields: Fields) throws(WireError) {
        let placement = try fields.object("placement")
        placementId = try placement.identifier("developer_id")
        abTestName = try placement.optionalString("ab_test_name") ?? ""
        audienceName = try placement.optionalString("audience_name")
        revision = try placement.optionalInt("revision")
        placementAudienceVersionId = try placement.optionalString("placement_audience_version_id")
        paywallId = try fields.optionalString("paywall_id")
        paywallName = try fields.optionalString("paywall_name") ?? ""
        variationId = try fields.identifier("variation_id")
        var products: [ProductReference] = []
        for product in try fields.objects("products") { products.append(try ProductReference(product)) }
        self.products = products
        dismissOnPurchase = try fields.optionalBool("dismiss_on_purchase") ?? true
        dismissOnRestore = try fields.optionalBool("dismiss_on_restore") ?? true
        postPurchase = try fields.optionalObject("post_purchase").map { (step: Fields) throws(WireError) in try PostPurchaseStep.load(step) }
        builder = fields.optional("builder")
        forced = try fields.optionalBool("forced") ?? false
        // Read leniently: only `get_remote_config` uses it, and says so when it is missing.
        if case .object(let config)? = fields.optional("remote_config"), case .string(let data)? = config["data"] {
            if case .string(let lang)? = config["lang"] { remoteConfig = RemoteConfig(lang: lang, data: data) } else { remoteConfig = RemoteConfig(lang: "", data: data) }
        } else {
            remoteConfig = nil
        }
    }
}

/// What happens after a successful purchase, as the paywall configures it: open a deep link,
/// or move to the app's next step.
package enum PostPurchaseStep: Equatable, Sendable {
    case deepLink(url: String)
    case nextStep(id: String)

    package static func load(_ fields: Fields) throws(WireError) -> PostPurchaseStep {
        switch try fields.string("type") {
        case "deep_link": return .deepLink(url: try fields.identifier("url"))
        case "next_step": return .nextStep(id: try fields.identifier("step_id"))
        case let other: throw WireError.wrongParam(fields.fieldPath("type"), "'\(other)' is not one of: deep_link, next_step")
        }
    }

    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            switch self {
            case .deepLink(let url):
                writer.member("type", "deep_link")
                writer.member("url", url)
            case .nextStep(let id):
                writer.member("type", "next_step")
                writer.member("step_id", id)
            }
        }
    }
}

/// A product as a paywall names it: the store's id, and what the placement says a purchase
/// grants (its access level and type). Nothing named means nothing assumed: there is no
/// default access level.
package struct ProductReference: Equatable, Sendable {
    package let vendorProductId: String
    /// The access level a purchase grants, when the placement names one.
    package var accessLevelId: String?
    /// The product's type, when the placement names one (the store's description decides otherwise).
    package var productType: ProductType?
    /// Offers a purchase on this paywall is made with (see `PurchaseOffer.init(_:)`).
    package var promotionalOfferId: String?
    package var winBackOfferId: String?
    /// Google Play: the base plan sold, and the offer applied.
    package var basePlanId: String?
    package var offerId: String?

    package init(vendorProductId: String) { self.vendorProductId = vendorProductId }

    /// `{vendor_product_id, access_level_id?, product_type?, promotional_offer_id?,
    /// win_back_offer_id?, base_plan_id?, offer_id?}` in a bundle or a fetched placement.
    package init(_ fields: Fields) throws(WireError) {
        vendorProductId = try fields.identifier("vendor_product_id")
        accessLevelId = try fields.optionalString("access_level_id").flatMap { $0.isEmpty ? nil : $0 }
        productType = try fields.optionalEnum("product_type", ProductType.self)
        promotionalOfferId = try fields.optionalString("promotional_offer_id").flatMap { $0.isEmpty ? nil : $0 }
        winBackOfferId = try fields.optionalString("win_back_offer_id").flatMap { $0.isEmpty ? nil : $0 }
        basePlanId = try fields.optionalString("base_plan_id").flatMap { $0.isEmpty ? nil : $0 }
        offerId = try fields.optionalString("offer_id").flatMap { $0.isEmpty ? nil : $0 }
    }

    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("vendor_product_id", vendorProductId)
            writer.member("access_level_id", accessLevelId)
            writer.member("product_type", productType?.rawValue)
            // Only when named: a paywall without offers keeps its shape byte for byte.
            if let promotionalOfferId { writer.member("promotional_offer_id", promotionalOfferId) }
            if let winBackOfferId { writer.member("win_back_offer_id", winBackOfferId) }
            if let basePlanId { writer.member("base_plan_id", basePlanId) }
            if let offerId { writer.member("offer_id", offerId) }
        }
    }
}
