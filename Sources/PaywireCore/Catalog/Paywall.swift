/// A paywall as served to the host: one placement's chosen variation, localized.
///
/// Immutable once built; the client encodes it once and hands out the same bytes.
struct Paywall: Sendable {
    let placement: Placement
    let variation: Variation
    let remoteConfig: RemoteConfig?
    let responseCreatedAt: Int
    let requestLocale: String

    /// Chooses the variation for `profileId` and the localization for `locale`.
    init(placement: Placement, profileId: String, locale: String?, responseCreatedAt: Int) throws(WireError) {
        guard let variation = VariationChooser.choose(
            placement.variations, placementAudienceVersionId: placement.placementAudienceVersionId, profileId: profileId)
        else {
            throw WireError(.invalidFallback, "placement '\(placement.developerId)' has no variations")
        }
        self.placement = placement
        self.variation = variation
        self.remoteConfig = LocaleMatch.pick(variation.remoteConfigs, language: LocaleMatch.language(of: locale)) { $0.lang }
        self.responseCreatedAt = responseCreatedAt
        self.requestLocale = locale ?? LocaleMatch.defaultLanguage
    }

    /// The wire form (`#/$defs/paywall` in the schema).
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("placement")
            writer.object { writer in
                writer.member("developer_id", placement.developerId)
                writer.member("audience_name", placement.audienceName)
                writer.member("revision", placement.revision)
                writer.member("ab_test_name", placement.abTestName)
                writer.member("placement_audience_version_id", placement.placementAudienceVersionId)
            }
            writer.member("paywall_id", variation.paywallId)
            writer.member("paywall_name", variation.paywallName)
            writer.member("variation_id", variation.variationId)
            writer.key("remote_config")
            if let remoteConfig {
                writer.object { writer in
                    writer.member("lang", remoteConfig.lang)
                    writer.member("data", remoteConfig.data)
                }
            } else {
                writer.null()
            }
            writer.key("products")
            writer.array { writer in
                for id in variation.productIds {
                    writer.object { writer in writer.member("vendor_product_id", id) }
                }
            }
            writer.member("response_created_at", responseCreatedAt)
            writer.member("request_locale", requestLocale)
        }
    }
}

/// What `get_paywall_products` and `log_show_paywall` need from a paywall the host hands back.
struct PaywallReference: Sendable {
    let placementId: String
    let paywallName: String
    let variationId: String
    let abTestName: String
    let productIds: [String]

    /// Reads the fields the core needs from a round-tripped paywall object; extra fields are ignored.
    init(_ fields: Fields) throws(WireError) {
        let placement = try fields.object("placement")
        placementId = try placement.identifier("developer_id")
        abTestName = try placement.optionalString("ab_test_name") ?? ""
        paywallName = try fields.optionalString("paywall_name") ?? ""
        variationId = try fields.identifier("variation_id")
        var ids: [String] = []
        for product in try fields.objects("products") { ids.append(try product.identifier("vendor_product_id")) }
        productIds = ids
    }
}
