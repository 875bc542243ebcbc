import PaywireModel
import PaywireWire

/// What to ask the Play Developer API after an RTDN: an RTDN only says that a purchase
/// changed; its state is the API's.
package enum PlayLookup: Sendable, Equatable {
    case subscription(packageName: String, token: String)
    case product(packageName: String, productId: String, token: String)
}

/// The Play Developer API's answer applied to an RTDN's event: the notification type says what
/// happened, the answer gives the dates and the renewal (`SubscriptionPurchaseV2`) or whether a
/// one-time purchase still stands (`ProductPurchase`). Pure.
package enum PlayPurchaseState {
    /// `lineItems[].expiryTime` (the latest) is the expiry, and the grace period's end while
    /// `subscriptionState` is IN_GRACE_PERIOD; `autoRenewingPlan.autoRenewEnabled` the renewal;
    /// the line item's productId the product.
    package static func subscription(_ event: LifecycleEvent, _ purchase: JSONValue) throws(PlayAPIProblem) -> LifecycleEvent {
        guard let items = purchase["lineItems"]?.asArray, !items.isEmpty else {
            throw PlayAPIProblem("the SubscriptionPurchaseV2 has no lineItems")
        }
        var next = event
        var latest: (expiry: Int, item: JSONValue)?
        for item in items {
            guard let text = item["expiryTime"]?.asString, let expiry = rfc3339(text) else {
                throw PlayAPIProblem("a SubscriptionPurchaseV2 line item has no expiryTime in RFC 3339")
            }
            if latest.map({ expiry > $0.expiry }) ?? true { latest = (expiry, item) }
        }
        guard let latest else { throw PlayAPIProblem("the SubscriptionPurchaseV2 has no lineItems") }
        next.expiresAt = latest.expiry
        next.vendorProductId = latest.item["productId"]?.asString ?? event.vendorProductId
        if let plan = latest.item["autoRenewingPlan"], plan.isObject {
            next.willRenew = plan["autoRenewEnabled"]?.asBool ?? false
        } else {
            next.willRenew = false   // a prepaid plan does not renew
        }
        let state = purchase["subscriptionState"]?.asString
        if state == "SUBSCRIPTION_STATE_IN_GRACE_PERIOD" { next.gracePeriodExpiresAt = latest.expiry }
        return next
    }

    /// `purchaseState` 1 (canceled) ends access whatever the notification said; 0 (purchased)
    /// or 2 (pending) leaves it, so only recorded.
    package static func product(_ event: LifecycleEvent, _ purchase: JSONValue) throws(PlayAPIProblem) -> LifecycleEvent {
        guard let state = purchase["purchaseState"]?.asInt, (0...2).contains(state) else {
            throw PlayAPIProblem("the ProductPurchase has no purchaseState 0, 1 or 2")
        }
        var next = LifecycleEvent(kind: state == 1 ? .revoke : .other, storeType: event.storeType, subtype: event.subtype, at: event.at)
        next.vendorProductId = event.vendorProductId
        return next
    }

    /// RFC 3339 in UTC as Google writes it (`2026-12-26T10:00:00.123456789Z`): the fraction
    /// cut to milliseconds.
    package static func rfc3339(_ text: String) -> Int? {
        guard let dot = text.firstIndex(of: "."), text.hasSuffix("Z") else { return ISODate.parse(text) }
        let fraction = text[text.index(after: dot)..<text.index(before: text.endIndex)]
        guard !fraction.isEmpty, fraction.allSatisfy(\.isASCII), fraction.allSatisfy(\.isNumber) else { return nil }
        return ISODate.parse(String(text[..<dot]) + "." + fraction.prefix(3) + "Z")
    }
}

/// A new Play purchase token that replaces another (`linkedPurchaseToken`): Play issues one on
/// an upgrade, a downgrade or a resubscription, and the replaced purchase must stop granting.
package struct PlayLink: Sendable, Equatable {
    /// The replaced purchase's token.
    package let replacedToken: String
    /// The new purchase's `startTime`, else the notification's time.
    package let startedAt: Int
    /// A license tester's purchase (`testPurchase`) is a sandbox one.
    package let environment: StoreEnvironment

    /// The link a SubscriptionPurchaseV2 names, if any; a link to itself is none.
    package static func of(_ purchase: JSONValue, token: String, at: Int) -> PlayLink? {
        guard let replaced = purchase["linkedPurchaseToken"]?.asString, !replaced.isEmpty, replaced != token else { return nil }
        let started = purchase["startTime"]?.asString.flatMap(PlayPurchaseState.rfc3339) ?? at
        return PlayLink(replacedToken: replaced, startedAt: started,
                        environment: StoreEnvironment(playTestPurchase: purchase["testPurchase"] != nil))
    }
}
