import PaywireModel
import PaywireWire

/// A Stripe Event's envelope (`{id, type, created, livemode, data: {object, previous_attributes}}`)
/// and what it asks of the server, decided from the event alone: pure, so every event type's
/// mapping can be walked without a database. The store then resolves the owner (`StripeRules`).
package struct StripeEffect: Sendable {
    package let eventId: String
    package let type: String
    /// When Stripe made the event, in ms.
    package let at: Int
    /// `production` for livemode, else `sandbox`.
    package let environment: StoreEnvironment
    /// The purchase: its subscription, payment intent or checkout session id; nil: learned from
    /// a link (a refund's charge), or none (recorded under no profile).
    package var originalTransactionId: String?
    /// Stripe ids the owner (and, for a refund, the purchase) may be linked under, in order.
    package var lookupKeys: [String] = []
    /// A profile the event names itself: client_reference_id, metadata.paywire_profile_id.
    package var namedProfile: String?
    /// The metadata's profile is a hint after the links; client_reference_id is the owner.
    package var namedProfileIsHint = false
    /// A completed checkout: the session id (held for redemption when it names no profile).
    package var checkoutSessionId: String?
    /// A web paywall's checkout (`metadata.paywire_web_paywall` = `1`): the profile it names is
    /// a browser's, so the purchase is held there for the app to redeem.
    package var fromWebPaywall = false
    package var customerId: String?
    /// The product the event's price maps to; nil: no price, or one not in the catalog.
    package var productId: String?
    package var purchasedAt: Int?
    /// The paywall cell a checkout's metadata names (results count the purchase there).
    package var attribution: PurchaseAttribution?
    /// Stripe ids remembered for the owner and purchase, so later events find them.
    package var links: [String] = []
    /// The lifecycle event to apply; nil: nothing about access changes (`reason` says why),
    /// apart from a purchase a checkout records.
    package var lifecycle: LifecycleEvent?
    package var reason: String?
}

/// The Stripe event types handled; any other type is recorded and acknowledged.
package enum StripeEvent {
    package static let checkoutCompleted = "checkout.session.completed"
    package static let subscriptionTypes = ["customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted"]
    package static let invoicePaid = "invoice.paid"
    package static let chargeRefunded = "charge.refunded"
    /// The prefix of the profile holding a web purchase until it is redeemed.
    package static let holderPrefix = "web_purchase:"

    package static func handled(_ type: String) -> Bool {
        type == checkoutCompleted || subscriptionTypes.contains(type) || type == invoicePaid || type == chargeRefunded
    }

    /// The effect of a verified event body; `prices` maps Stripe price ids to product ids.
    package static func effect(_ body: [UInt8], prices: [String: String]) throws(RequestProblem) -> StripeEffect {
        let event = try NotificationRequests.document(body)
        guard let created = try event.int("created"), created >= 0 else { throw RequestProblem("created is required (unix seconds)") }
        guard let data = try event.member("data"), let object = try data.member("object") else { throw RequestProblem("data.object is required") }
        var effect = StripeEffect(eventId: try event.text("id"), type: try event.text("type"), at: created * 1000,
                                  environment: StoreEnvironment(stripeLivemode: try event.flag("livemode") == true))
        switch effect.type {
        case checkoutCompleted: try StripeObjects.checkout(object, prices: prices, into: &effect)
        case let type where subscriptionTypes.contains(type):
            try StripeObjects.subscription(object, previous: try data.member("previous_attributes"), prices: prices, into: &effect)
        case invoicePaid: try StripeObjects.invoice(object, prices: prices, into: &effect)
        case chargeRefunded: try StripeObjects.charge(object, into: &effect)
        default: effect.reason = "\(effect.type) is recorded; access does not change"
        }
        return effect
    }

    /// A Stripe id member: the id string, or an expanded object's `id`.
    package static func id(_ members: Members, _ key: String) throws(RequestProblem) -> String? {
        guard let value = members.object[key], value != .null else { return nil }
        if let text = value.asString, !text.isEmpty { return text }
        if value.isObject, let text = value["id"]?.asString, !text.isEmpty { return text }
        throw RequestProblem("\(members.path)\(key) must be a Stripe id or an object with an id")
    }

    /// Unix seconds as ms.
    package static func seconds(_ members: Members, _ key: String) throws(RequestProblem) -> Int? {
        guard let value = try members.int(key) else { return nil }
        guard value >= 0, value < RecordRules.maxSafeInteger / 1000 else { throw RequestProblem("\(members.path)\(key) must be unix seconds") }
        return value * 1000
    }

    /// The objects of an array member (`items.data`, `lines.data`).
    package static func list(_ members: Members, _ key: String) throws(RequestProblem) -> [Members] {
        guard let list = try members.member(key), let items = list.object["data"], items != .null else { return [] }
        guard let array = items.asArray else { throw RequestProblem("\(members.path)\(key).data must be an array") }
        var result: [Members] = []
        for (index, item) in array.enumerated() { result.append(try Members(item, path: "\(members.path)\(key).data[\(index)].")) }
        return result
    }

    /// The product a price id maps to; the reason when there is none.
    package static func product(_ priceId: String?, prices: [String: String]) -> (String?, String?) {
        guard let priceId else { return (nil, "names no price") }
        guard let product = prices[priceId] else { return (nil, "names price '\(priceId)', which no product of the catalog has as stripe_price_id") }
        return (product, nil)
    }
}
