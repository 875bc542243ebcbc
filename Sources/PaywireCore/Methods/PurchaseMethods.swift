import PaywireModel
import PaywireWire

extension MethodTable {
    /// Purchases and restores without a view, and transactions the app reports.
    static let purchaseMethods: [MethodEntry] = [
        MethodEntry("make_purchase") { client, params throws(WireError) in
            let productId: String
            switch (try params.optionalObject("product"), try params.optionalString("vendor_product_id")) {
            case (let product?, nil): productId = try product.identifier("vendor_product_id")
            case (nil, let id?) where !id.isEmpty: productId = id
            case (nil, _): throw WireError.wrongParam("vendor_product_id", "make_purchase needs product or vendor_product_id")
            case (.some, .some): throw WireError.wrongParam("product", "takes product or vendor_product_id, not both")
            }
            let paywall = try params.optionalObject("paywall").map { (fields: Fields) throws(WireError) in try PaywallReference(fields) }
            if let paywall, !paywall.productIds.contains(productId) {
                throw WireError(.notFound, "product '\(productId)' is not on this paywall", details: JSONObject([("product_id", .string(productId))]))
            }
            let offer = try params.optionalObject("offer").map { (fields: Fields) throws(WireError) in try PurchaseOffer(fields) }
            let update = try params.optionalObject("subscription_update").map { (fields: Fields) throws(WireError) in
                try SubscriptionUpdate(fields, productId: productId)
            }
            return try client.purchases.makePurchase(productId: productId, paywall: paywall, offer: offer, subscriptionUpdate: update)
        },
        MethodEntry("restore_purchases") { client, _ throws(WireError) in try client.purchases.restorePurchases() },
        .now("report_transaction") { client, params throws(WireError) in
            let paywall = try params.optionalObject("paywall").map { (fields: Fields) throws(WireError) in try PaywallReference(fields) }
            let state = try params.optionalEnum("state", PurchaseState.self) ?? .purchased
            return try client.purchases.reportTransaction(try params.object("transaction"), paywall: paywall, pending: state == .pending)
        },
    ]
}
