/// Which placement, A/B test and variation a view shows: the analytics context every view
/// event carries, so conversion can be measured per placement and variant.
struct ViewInfo: Equatable, Sendable {
    let id: String
    let placementId: String
    let abTestName: String
    let variationId: String

    /// `"view": {id, placement_id, ab_test_name, variation_id}` (also the result of the create methods).
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("id", id)
            writer.member("placement_id", placementId)
            writer.member("ab_test_name", abTestName)
            writer.member("variation_id", variationId)
        }
    }
}

/// A product of a paywall view as events and store requests carry it: the paywall product
/// shape when the store describes the product, else `{vendor_product_id}` with the paywall
/// context.
///
/// A class so the enums that carry it (store operations, timers, continuations) stay one
/// word: a multi-payload enum with one large payload keeps its tag hundreds of bytes in, and
/// every switch copies the whole value.
final class ViewProduct: Equatable, Sendable {
    let productId: String
    /// The store's description, when it has one.
    let product: StoreProduct?
    let paywall: PaywallReference

    init(productId: String, product: StoreProduct?, paywall: PaywallReference) {
        self.productId = productId
        self.product = product
        self.paywall = paywall
    }

    static func == (lhs: ViewProduct, rhs: ViewProduct) -> Bool {
        lhs.productId == rhs.productId && lhs.product == rhs.product && lhs.paywall == rhs.paywall
    }

    func write(to writer: inout JSONWriter) {
        let index = paywall.productIds.firstIndex(of: productId) ?? 0
        if let product {
            product.write(to: &writer, paywall: paywall, index: index)
            return
        }
        writer.object { writer in
            writer.member("vendor_product_id", productId)
            writer.member("paywall_variation_id", paywall.variationId)
            writer.member("paywall_ab_test_name", paywall.abTestName)
            writer.member("paywall_name", paywall.paywallName)
            writer.member("paywall_product_index", index)
        }
    }
}

/// How a view was closed, as `paywall_view_did_dismiss` reports it.
enum DismissReason: String, CaseIterable, Sendable {
    case purchased, dismissed, tapped_outside, programmatic, restore_success
}

/// What the user did that is not a purchase or a restore.
enum ViewAction: Equatable, Sendable {
    case close, systemBack, openURL(String), custom(String)

    init(_ fields: Fields) throws(WireError) {
        switch try fields.string("type") {
        case "close": self = .close
        case "system_back": self = .systemBack
        case "open_url": self = .openURL(try fields.identifier("value"))
        case "custom": self = .custom(try fields.identifier("value"))
        case let other: throw WireError.wrongParam(fields.fieldPath("type"), "'\(other)' is not one of: close, system_back, open_url, custom")
        }
    }

    /// Close and back always close the view: a close button that does nothing is impossible.
    var closesView: Bool {
        switch self {
        case .close, .systemBack: return true
        case .openURL, .custom: return false
        }
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            switch self {
            case .close: writer.member("type", "close")
            case .systemBack: writer.member("type", "system_back")
            case .openURL(let url):
                writer.member("type", "open_url")
                writer.member("value", url)
            case .custom(let value):
                writer.member("type", "custom")
                writer.member("value", value)
            }
        }
    }
}
