/// A paywall as served to the host: one placement's chosen variation, localized.
///
/// Immutable once built; the client encodes it once and hands out the same bytes.
struct Paywall: Sendable {
    let selection: Selection<Variation>

    /// The wire form (`#/$defs/paywall` in the schema).
    func write(to writer: inout JSONWriter) {
        let variation = selection.variation
        writer.object { writer in
            selection.writePlacement(to: &writer)
            writer.member("paywall_id", variation.paywallId)
            writer.member("paywall_name", variation.paywallName)
            writer.member("variation_id", variation.variationId)
            selection.writeRemoteConfig(to: &writer)
            writer.key("products")
            writer.array { writer in
                for id in variation.productIds {
                    writer.object { writer in writer.member("vendor_product_id", id) }
                }
            }
            selection.writeVersionAndLocale(to: &writer)
        }
    }
}

/// What `get_paywall_products`, `create_paywall_view` and `log_show_paywall` need from a paywall
/// the host hands back.
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
