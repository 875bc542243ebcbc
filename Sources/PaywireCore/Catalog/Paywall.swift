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
            writer.member("dismiss_on_purchase", variation.dismissOnPurchase)
            writer.key("post_purchase")
            if let step = variation.postPurchase { step.write(to: &writer) } else { writer.null() }
            writer.member("builder", variation.builder ?? .null)
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
struct PaywallReference: Equatable, Sendable {
    let placementId: String
    let paywallName: String
    let variationId: String
    let abTestName: String
    let productIds: [String]
    let dismissOnPurchase: Bool
    let postPurchase: PostPurchaseStep?
    let builder: JSONValue?
    /// The rest of the analytics context, when the host handed it back (exposures carry it).
    let audienceName: String?
    let revision: Int?
    let placementAudienceVersionId: String?
    let paywallId: String?

    /// Reads the fields the core needs from a round-tripped paywall object; extra fields are ignored.
    init(_ fields: Fields) throws(WireError) {
        let placement = try fields.object("placement")
        placementId = try placement.identifier("developer_id")
        abTestName = try placement.optionalString("ab_test_name") ?? ""
        audienceName = try placement.optionalString("audience_name")
        revision = try placement.optionalInt("revision")
        placementAudienceVersionId = try placement.optionalString("placement_audience_version_id")
        paywallId = try fields.optionalString("paywall_id")
        paywallName = try fields.optionalString("paywall_name") ?? ""
        variationId = try fields.identifier("variation_id")
        var ids: [String] = []
        for product in try fields.objects("products") { ids.append(try product.identifier("vendor_product_id")) }
        productIds = ids
        dismissOnPurchase = try fields.optionalBool("dismiss_on_purchase") ?? true
        postPurchase = try fields.optionalObject("post_purchase").map { (step: Fields) throws(WireError) in try PostPurchaseStep.load(step) }
        builder = fields.optional("builder")
    }
}

/// What happens after a successful purchase, as the paywall configures it: open a deep link,
/// or move to the app's next step.
enum PostPurchaseStep: Equatable, Sendable {
    case deepLink(url: String)
    case nextStep(id: String)

    static func load(_ fields: Fields) throws(WireError) -> PostPurchaseStep {
        switch try fields.string("type") {
        case "deep_link": return .deepLink(url: try fields.identifier("url"))
        case "next_step": return .nextStep(id: try fields.identifier("step_id"))
        case let other: throw WireError.wrongParam(fields.fieldPath("type"), "'\(other)' is not one of: deep_link, next_step")
        }
    }

    func write(to writer: inout JSONWriter) {
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
