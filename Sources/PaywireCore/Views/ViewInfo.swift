import PaywireModel
import PaywireWire

/// Which placement, A/B test and variation a view shows: the analytics context every view
/// event carries, so conversion can be measured per placement and variant.
struct ViewInfo: Sendable {
    let id: String
    let placementId: String
    let abTestName: String
    let variationId: String
    /// What the host said about where and why it shows the view, echoed on every event.
    var context: ViewContext? = nil

    /// `"view": {id, placement_id, ab_test_name, variation_id, context?}` (also the result of
    /// the create methods).
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("id", id)
            writer.member("placement_id", placementId)
            writer.member("ab_test_name", abTestName)
            writer.member("variation_id", variationId)
            if let context {
                writer.key("context")
                context.write(to: &writer)
            }
        }
    }
}

/// A host request a view makes names it: `"view": {...}`.
extension ViewInfo {
    var origin: HostRequestOrigin {
        var writer = JSONWriter()
        write(to: &writer)
        return HostRequestOrigin(key: "view", value: writer.bytes)
    }
}

/// The host's own context for a view, `{placement?, experiment?, variant?}` (the AppDNA
/// `PaywallContext`): kept as given and echoed, never interpreted.
struct ViewContext: Sendable {
    let placement: String?
    let experiment: String?
    let variant: String?

    init(_ fields: Fields) throws(WireError) {
        placement = try fields.optionalString("placement")
        experiment = try fields.optionalString("experiment")
        variant = try fields.optionalString("variant")
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            if let placement { writer.member("placement", placement) }
            if let experiment { writer.member("experiment", experiment) }
            if let variant { writer.member("variant", variant) }
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
    /// The paywall it is bought on; nil for a purchase without one (`make_purchase`).
    let paywall: PaywallReference?
    /// The signed offer the purchase is made with, passed to the store in `store.purchase`.
    let offer: SignedOffer?
    /// Google Play: the subscription this purchase replaces, passed to the store in `store.purchase`.
    let subscriptionUpdate: SubscriptionUpdate?

    init(productId: String, product: StoreProduct?, paywall: PaywallReference?, offer: SignedOffer? = nil,
         subscriptionUpdate: SubscriptionUpdate? = nil) {
        self.productId = productId
        self.product = product
        self.paywall = paywall
        self.offer = offer
        self.subscriptionUpdate = subscriptionUpdate
    }

    /// The same product, bought with `offer`.
    func with(_ offer: SignedOffer) -> ViewProduct {
        ViewProduct(productId: productId, product: product, paywall: paywall, offer: offer, subscriptionUpdate: subscriptionUpdate)
    }

    /// The offer the paywall names for this product, if any.
    var namedOffer: PurchaseOffer? { PurchaseOffer(paywall?.products.first { $0.vendorProductId == productId }) }

    /// The offer the backend must sign before the store is asked: the one asked for, else the
    /// one the paywall names; none once a signature is on the product. The one rule
    /// `make_purchase` and a paywall view's purchase both follow.
    func offerToSign(requested: PurchaseOffer? = nil) -> PurchaseOffer? {
        offer == nil ? requested ?? namedOffer : nil
    }

    var offerToSign: PurchaseOffer? { offerToSign() }

    static func == (lhs: ViewProduct, rhs: ViewProduct) -> Bool {
        lhs.productId == rhs.productId && lhs.product == rhs.product && lhs.paywall == rhs.paywall && lhs.offer == rhs.offer
            && lhs.subscriptionUpdate == rhs.subscriptionUpdate
    }

    func write(to writer: inout JSONWriter) {
        guard let paywall else {
            if let product { product.write(to: &writer, paywall: nil, index: 0) } else {
                writer.object { writer in writer.member("vendor_product_id", productId) }
            }
            return
        }
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
enum DismissReason: String, WireEnum, Sendable {
    case purchased, dismissed, tapped_outside, programmatic, restore_success
}

/// What the user did that is not a purchase or a restore. The last four are AppDNA's paywall
/// actions, reported as they come (`value` optional: the feature, the plan, the link).
enum ViewAction: Sendable {
    case close, systemBack, openURL(String), custom(String)
    case ctaTapped, featureSelected(String?), planChanged(String?), linkTapped(String?)

    static let kinds = "close, system_back, open_url, custom, cta_tapped, feature_selected, plan_changed, link_tapped"

    init(_ fields: Fields) throws(WireError) {
        switch try fields.string("type") {
        case "close": self = .close
        case "system_back": self = .systemBack
        case "open_url": self = .openURL(try fields.identifier("value"))
        case "custom": self = .custom(try fields.identifier("value"))
        case "cta_tapped": self = .ctaTapped
        case "feature_selected": self = .featureSelected(try fields.optionalString("value"))
        case "plan_changed": self = .planChanged(try fields.optionalString("value"))
        case "link_tapped": self = .linkTapped(try fields.optionalString("value"))
        case let other: throw WireError.wrongParam(fields.fieldPath("type"), "'\(other)' is not one of: \(ViewAction.kinds)")
        }
    }

    private var kind: String {
        switch self {
        case .close: return "close"
        case .systemBack: return "system_back"
        case .openURL: return "open_url"
        case .custom: return "custom"
        case .ctaTapped: return "cta_tapped"
        case .featureSelected: return "feature_selected"
        case .planChanged: return "plan_changed"
        case .linkTapped: return "link_tapped"
        }
    }

    /// Close and back always close the view: a close button that does nothing is impossible.
    var closesView: Bool {
        switch self {
        case .close, .systemBack: return true
        case .openURL, .custom, .ctaTapped, .featureSelected, .planChanged, .linkTapped: return false
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
            case .ctaTapped:
                writer.member("type", "cta_tapped")
            case .featureSelected(let value), .planChanged(let value), .linkTapped(let value):
                writer.member("type", kind)
                if let value { writer.member("value", value) }
            }
        }
    }
}

#if DEBUG
// Tests compare these; the release library never does and leaves their == out (20 KB in all).
extension ViewInfo: Equatable {}
extension ViewContext: Equatable {}
extension ViewAction: Equatable {}
#endif
