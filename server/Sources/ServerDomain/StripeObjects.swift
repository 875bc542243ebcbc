import PaywireModel
import PaywireWire

/// What each handled Stripe object says, read into a `StripeEffect`. Pure. Reads both the
/// older API versions' members (`invoice.subscription`, `subscription.current_period_end`) and
/// the newer ones' (`invoice.parent.subscription_details`, the item's `current_period_end`).
package enum StripeObjects {
    /// `checkout.session.completed`: the purchase for `client_reference_id`, or held for redemption.
    package static func checkout(_ session: Members, prices: [String: String], into effect: inout StripeEffect) throws(RequestProblem) {
        let sessionId = try session.text("id")
        let subscription = try StripeEvent.id(session, "subscription")
        let paymentIntent = try StripeEvent.id(session, "payment_intent")
        let mode = try session.optionalText("mode")
        if mode == "setup" {
            effect.reason = "a checkout in setup mode buys nothing: recorded"
            return
        }
        if try session.optionalText("payment_status") == "unpaid" {
            effect.reason = "the checkout is not paid yet (a delayed payment method): recorded, nothing is granted"
            return
        }
        effect.checkoutSessionId = sessionId
        effect.customerId = try StripeEvent.id(session, "customer")
        effect.namedProfile = try session.optionalText("client_reference_id")
        effect.originalTransactionId = subscription ?? paymentIntent ?? sessionId
        effect.links = [sessionId, subscription, paymentIntent].compactMap { $0 }
        effect.purchasedAt = effect.at
        let metadata = try session.member("metadata")
        var priceId = try metadata?.optionalText("paywire_price_id")
        effect.attribution = try cell(metadata)
        effect.fromWebPaywall = try metadata?.optionalText(webPaywallKey) == "1"
        for item in try StripeEvent.list(session, "line_items") where priceId == nil { priceId = try price(item) }
        let (product, why) = StripeEvent.product(priceId, prices: prices)
        effect.productId = product
        if product == nil {
            effect.reason = "the checkout \(why ?? ""): "
                + (subscription != nil ? "its subscription's events grant access" : "nothing is granted (a one-time checkout names its price in metadata.paywire_price_id)")
        }
    }

    /// The metadata key a web paywall's checkout carries (`StripeEffect.fromWebPaywall`).
    package static let webPaywallKey = "paywire_web_paywall"

    /// The paywall cell a checkout's metadata names: `paywire_placement_id` and
    /// `paywire_variation_id`, both or none, and `paywire_ab_test_name`, empty or missing for a
    /// placement without a test (Stripe keeps no key whose value is empty).
    package static func cell(_ metadata: Members?) throws(RequestProblem) -> PurchaseAttribution? {
        guard let placement = try metadata?.optionalText("paywire_placement_id"), !placement.isEmpty,
              let variation = try metadata?.optionalText("paywire_variation_id"), !variation.isEmpty else { return nil }
        let test = try metadata?.optionalText("paywire_ab_test_name") ?? ""
        return PurchaseAttribution(placementId: placement, audienceName: nil, abTestName: test, variationId: variation, paywallId: nil,
                                   paywallName: "")
    }

    /// `customer.subscription.created`, `.updated` and `.deleted`.
    package static func subscription(_ subscription: Members, previous: Members?, prices: [String: String],
                             into effect: inout StripeEffect) throws(RequestProblem) {
        let subscriptionId = try subscription.text("id")
        let items = try StripeEvent.list(subscription, "items")
        var priceId: String?, periodEnd = try StripeEvent.seconds(subscription, "current_period_end")
        if let item = items.first {
            priceId = try price(item)
            periodEnd = try StripeEvent.seconds(item, "current_period_end") ?? periodEnd
        }
        let (product, why) = StripeEvent.product(priceId, prices: prices)
        guard let product else {
            effect.reason = "the subscription \(why ?? ""): recorded"
            return
        }
        try concerns(&effect, subscriptionId, product: product, customer: StripeEvent.id(subscription, "customer"),
                     metadata: subscription.member("metadata"))
        effect.purchasedAt = try StripeEvent.seconds(subscription, "start_date") ?? effect.at
        let facts = StripeLifecycle.SubscriptionFacts(
            status: try subscription.text("status"), periodEnd: periodEnd,
            cancelAtPeriodEnd: try subscription.flag("cancel_at_period_end") ?? false,
            endedAt: try StripeEvent.seconds(subscription, "ended_at"),
            cancellationReason: try subscription.member("cancellation_details")?.optionalText("reason"),
            changed: memberNames(previous), previousStatus: try previous?.optionalText("status"))
        let (event, reason) = StripeLifecycle.subscription(effect.type, facts, at: effect.at)
        effect.lifecycle = event.map { withPurchase($0, transactionId: subscriptionId, product: product) }
        effect.reason = reason
    }

    /// `invoice.paid`: a subscription's first payment or a renewal, until its line's period end.
    package static func invoice(_ invoice: Members, prices: [String: String], into effect: inout StripeEffect) throws(RequestProblem) {
        let invoiceId = try invoice.text("id")
        var details = try invoice.member("parent")?.member("subscription_details")
        if details == nil { details = try invoice.member("subscription_details") }
        var subscription = try StripeEvent.id(invoice, "subscription")
        if subscription == nil, let details { subscription = try StripeEvent.id(details, "subscription") }
        guard let subscriptionId = subscription else {
            effect.reason = "an invoice of no subscription is recorded (a one-time purchase comes with checkout.session.completed)"
            return
        }
        let lines = try StripeEvent.list(invoice, "lines")
        var priceId: String?, periodStart: Int?, periodEnd: Int?
        for line in lines where priceId == nil {
            priceId = try price(line)
            if let period = try line.member("period") {
                periodStart = try StripeEvent.seconds(period, "start")
                periodEnd = try StripeEvent.seconds(period, "end")
            }
        }
        let (product, why) = StripeEvent.product(priceId, prices: prices)
        guard let product else {
            effect.reason = "the invoice \(why ?? ""): recorded"
            return
        }
        try concerns(&effect, subscriptionId, product: product, customer: StripeEvent.id(invoice, "customer"),
                     metadata: details?.member("metadata"))
        effect.links += [invoiceId] + [try StripeEvent.id(invoice, "payment_intent"), try StripeEvent.id(invoice, "charge")].compactMap { $0 }
        effect.purchasedAt = periodStart ?? effect.at
        let first = try invoice.optionalText("billing_reason") == "subscription_create"
        var event = LifecycleEvent(kind: first ? .subscribed : .didRenew, storeType: effect.type, subtype: nil, at: effect.at)
        event.expiresAt = periodEnd
        effect.lifecycle = withPurchase(event, transactionId: invoiceId, product: product)
    }

    /// `charge.refunded`: a full refund ends the purchase its payment intent or invoice paid.
    package static func charge(_ charge: Members, into effect: inout StripeEffect) throws(RequestProblem) {
        let chargeId = try charge.text("id")
        guard try charge.flag("refunded") == true else {
            effect.reason = "a partial refund (amount_refunded below amount): access stays"
            return
        }
        effect.lookupKeys = [try StripeEvent.id(charge, "payment_intent"), try StripeEvent.id(charge, "invoice"), chargeId].compactMap { $0 }
        var event = LifecycleEvent(kind: .refund, storeType: effect.type, subtype: nil, at: effect.at)
        event.refundedAt = effect.at
        effect.lifecycle = event
    }

    /// A line item's, subscription item's or invoice line's price id (`price` as an id or an
    /// object, or the newer `pricing.price_details.price`).
    package static func price(_ item: Members) throws(RequestProblem) -> String? {
        if let price = try StripeEvent.id(item, "price") { return price }
        guard let details = try item.member("pricing")?.member("price_details") else { return nil }
        return try StripeEvent.id(details, "price")
    }

    /// A subscription's event concerns its purchase (the subscription's id), found through its
    /// own link, the profile its metadata names, or its customer's checkout.
    private static func concerns(_ effect: inout StripeEffect, _ subscriptionId: String, product: String, customer: String?,
                                 metadata: Members?) throws(RequestProblem) {
        effect.productId = product
        effect.originalTransactionId = subscriptionId
        effect.customerId = customer
        effect.lookupKeys = [subscriptionId] + [customer].compactMap { $0 }
        effect.namedProfile = try metadata?.optionalText("paywire_profile_id")
        effect.namedProfileIsHint = true
        effect.links = [subscriptionId]
    }

    /// The member names of an object (what `previous_attributes` says changed).
    package static func memberNames(_ members: Members?) -> Set<String> {
        guard case .object(let object)? = members?.object else { return [] }
        return Set(object.members.map(\.key))
    }

    private static func withPurchase(_ event: LifecycleEvent, transactionId: String, product: String) -> LifecycleEvent {
        var event = event
        event.transactionId = transactionId
        event.vendorProductId = product
        return event
    }
}
