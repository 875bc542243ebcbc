import PaywireWire

/// A flow of the vendor's file (format 10 on): the A/B variation of a paywall placement, holding
/// the paywalls its screens show. Paywire serves a flow as the one paywall its variation is:
/// the flow's id and name, the products of all its paywalls (in order, each once), its remote
/// configs. Its screens' own paywalls, and its layouts (`flow_version_id`, format 11's
/// `ui_schema`), have no place in Paywire's model: the host draws the paywall.
extension Variation {
    /// `{variation_id, weight, cross_placement_info?, flow_id, flow_name, remote_configs?,
    /// flow_version_id?, ui_schema? (11), variations: [paywall, ...]?}`, checked as the vendor's
    /// SDKs decode it.
    init(vendorFlow fields: Fields, version: Int, crossPlacementGroup: String?) throws(WireError) {
        let variationId = try fields.identifier("variation_id")
        let flowId = try fields.identifier("flow_id")
        let flowName = try fields.string("flow_name")
        let weight = try fields.int("weight", in: 0...100)
        var remoteConfigs: [RemoteConfig] = []
        if fields.optional("remote_configs") != nil {
            for config in try fields.objects("remote_configs") { remoteConfigs.append(try RemoteConfig.vendorLocalization(config)) }
        }
        if version >= 11 {
            try Variation.checkLayouts(fields)
        } else {
            _ = try fields.optionalString("flow_version_id")
        }
        var products: [ProductReference] = []
        var seen = Set<String>()
        for paywall in fields.optional("variations") == nil ? [] : try fields.objects("variations") {
            // Each screen's paywall is read as the SDKs read it; its products join the flow's.
            _ = try paywall.identifier("paywall_id")
            _ = try paywall.string("paywall_name")
            _ = try paywall.identifier("variation_id")
            _ = try paywall.optionalString("web_purchase_url")
            for product in try paywall.objects("products") {
                let reference = try ProductReference(vendor: product, version: version)
                if seen.insert(reference.vendorProductId).inserted { products.append(reference) }
            }
        }
        self.init(variationId: variationId, paywallId: flowId, paywallName: flowName, weight: weight,
                  products: products, remoteConfigs: remoteConfigs, crossPlacementGroup: crossPlacementGroup)
    }

    /// Format 11's `ui_schema` (`{layouts: [{flow_layout_id}, ...], grids: [{cells, ...}, ...]}`,
    /// or null), which requires the `flow_version_id` it belongs to. Checked, not served.
    private static func checkLayouts(_ fields: Fields) throws(WireError) {
        guard let schema = try fields.optionalObject("ui_schema") else {
            _ = try fields.optionalString("flow_version_id")
            return
        }
        _ = try fields.identifier("flow_version_id")
        let layouts = try schema.objects("layouts")
        guard !layouts.isEmpty else { throw WireError.wrongParam(schema.fieldPath("layouts"), "needs at least one layout") }
        for layout in layouts { _ = try layout.identifier("flow_layout_id") }
        let grids = try schema.objects("grids")
        guard !grids.isEmpty else { throw WireError.wrongParam(schema.fieldPath("grids"), "needs at least one grid") }
        for grid in grids { _ = try grid.array("cells") }
    }
}

extension ProductReference {
    /// What the dashboard's `product_type` (format 9 on) says of a product's type: `consumable`
    /// and `lifetime` (a non-consumable) name one; a period (`weekly` ... `annual`),
    /// `nonsubscriptions` and `uncategorised` do not say whether it renews or is consumed, so
    /// the store's description decides, as it does for a bundle product naming no type.
    static func vendorProductType(_ value: String) -> ProductType? {
        switch value {
        case "consumable": return .consumable
        case "lifetime": return .non_consumable
        default: return nil
        }
    }
}
