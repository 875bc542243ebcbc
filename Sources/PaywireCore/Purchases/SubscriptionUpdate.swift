import PaywireModel
import PaywireWire

/// Google Play: a purchase that replaces a subscription the user has (Play Billing's
/// `SubscriptionUpdateParams`). The core checks it and hands it to the store unchanged in
/// `store.purchase`; what the replacement does to access comes from the store and the backend
/// (it follows the new purchase's `linkedPurchaseToken`), never from the device.
struct SubscriptionUpdate: Equatable, Sendable {
    /// Play's `SubscriptionUpdateParams.ReplacementMode`, in the wire's lower snake case.
    enum ReplacementMode: String, WireEnum, Sendable {
        case with_time_proration, charge_prorated_price, without_proration, charge_full_price, deferred
    }

    let oldVendorProductId: String
    let replacementMode: ReplacementMode

    /// `{old_vendor_product_id, replacement_mode}` of a purchase of `productId`: both required,
    /// nothing else, and a product does not replace itself.
    init(_ fields: Fields, productId: String) throws(WireError) {
        for member in fields.object.members where member.key != "old_vendor_product_id" && member.key != "replacement_mode" {
            throw WireError.wrongParam(fields.fieldPath(member.key), "is not a member of subscription_update (old_vendor_product_id, replacement_mode)")
        }
        oldVendorProductId = try fields.identifier("old_vendor_product_id")
        guard let mode = try fields.optionalEnum("replacement_mode", ReplacementMode.self) else {
            let allowed = ReplacementMode.allCases.map { $0.rawValue }.joined(separator: ", ")
            throw WireError.wrongParam(fields.fieldPath("replacement_mode"), "is required (one of: \(allowed))")
        }
        replacementMode = mode
        guard oldVendorProductId != productId else {
            throw WireError.wrongParam(fields.fieldPath("old_vendor_product_id"), "'\(productId)' cannot replace itself")
        }
    }

    /// `{old_vendor_product_id, replacement_mode}` in `store.purchase`, as the caller gave it.
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("old_vendor_product_id", oldVendorProductId)
            writer.member("replacement_mode", replacementMode.rawValue)
        }
    }
}
