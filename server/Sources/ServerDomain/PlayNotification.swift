import Foundation
import PaywireModel
import PaywireWire

/// Google Play Real-time Developer Notifications (a Pub/Sub push) in the App Store vocabulary.
/// Every kind is answered: Pub/Sub retries anything but a 2xx for days, so Play Console's
/// `testNotification`, a member the server does not know and a notificationType number it
/// does not know are recorded under no profile; only a push that is not a well-formed
/// DeveloperNotification is refused.
package enum PlayNotification {
    /// Play's subscription notification types in the App Store vocabulary; nil: recorded
    /// only (8 price change confirmed, 9 deferred, 10 paused, 11 pause schedule changed, 17-22).
    package static func kind(_ type: Int) -> (NotificationKind, subtype: String?)? {
        switch type {
        case 1: return (.didRenew, "BILLING_RECOVERY")              // SUBSCRIPTION_RECOVERED
        case 2: return (.didRenew, nil)                             // SUBSCRIPTION_RENEWED
        case 3: return (.didChangeRenewalStatus, "AUTO_RENEW_DISABLED")  // SUBSCRIPTION_CANCELED
        case 4: return (.subscribed, nil)                           // SUBSCRIPTION_PURCHASED
        case 5: return (.didFailToRenew, nil)                       // SUBSCRIPTION_ON_HOLD (account hold: no access)
        case 6: return (.didFailToRenew, "GRACE_PERIOD")            // SUBSCRIPTION_IN_GRACE_PERIOD
        case 7: return (.didChangeRenewalStatus, "AUTO_RENEW_ENABLED")   // SUBSCRIPTION_RESTARTED
        case 12: return (.revoke, nil)                              // SUBSCRIPTION_REVOKED
        case 13: return (.expired, nil)                             // SUBSCRIPTION_EXPIRED
        default: return nil
        }
    }

    /// The subscription types Google's reference lists (14-16 and 21 are not assigned).
    package static let typeNames = [
        1: "SUBSCRIPTION_RECOVERED", 2: "SUBSCRIPTION_RENEWED", 3: "SUBSCRIPTION_CANCELED", 4: "SUBSCRIPTION_PURCHASED",
        5: "SUBSCRIPTION_ON_HOLD", 6: "SUBSCRIPTION_IN_GRACE_PERIOD", 7: "SUBSCRIPTION_RESTARTED",
        8: "SUBSCRIPTION_PRICE_CHANGE_CONFIRMED", 9: "SUBSCRIPTION_DEFERRED", 10: "SUBSCRIPTION_PAUSED",
        11: "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED", 12: "SUBSCRIPTION_REVOKED", 13: "SUBSCRIPTION_EXPIRED",
        17: "SUBSCRIPTION_ITEMS_CHANGED", 18: "SUBSCRIPTION_CANCELLATION_SCHEDULED", 19: "SUBSCRIPTION_PRICE_CHANGE_UPDATED",
        20: "SUBSCRIPTION_PENDING_PURCHASE_CANCELED", 22: "SUBSCRIPTION_PRICE_STEP_UP_CONSENT_UPDATED",
    ]

    /// One-time product types: 1 ONE_TIME_PRODUCT_PURCHASED (recorded; the device posts the
    /// purchase), 2 ONE_TIME_PRODUCT_CANCELED (a pending purchase canceled: access ends).
    package static let oneTimeTypeNames = [1: "ONE_TIME_PRODUCT_PURCHASED", 2: "ONE_TIME_PRODUCT_CANCELED"]

    /// The type name of Play Console's test notification.
    package static let testType = "TEST_NOTIFICATION"

    /// Play gives no expiry in a notification and there is no Play API here: a renewal or
    /// purchase lasts `expiryTimeMillis` when the sender adds it, else one period of the
    /// product from the event by the calendar; a grace period ends at
    /// `gracePeriodExpiryTimeMillis`, else 3 days (Play's shortest) after the event.
    package static let defaultGraceMillis = 3 * 24 * 3600 * 1000

    /// `POST /v1/notifications/play`: a Pub/Sub push of a Real-time Developer Notification.
    package static func parse(_ body: [UInt8], products: [String: StoreProduct]) throws(RequestProblem)
        -> (notification: StoreNotification, lookup: PlayLookup?) {
        let push = try NotificationRequests.document(body)
        _ = try push.text("subscription")
        guard let message = try push.member("message") else { throw RequestProblem("message is required") }
        let messageId = try message.text("messageId")
        guard let data = Base64.decode(try message.text("data")),
              let decoded = try? JSONValue(parsing: Array(data)) else {
            throw RequestProblem("message.data must be base64 of a JSON object (a Real-time Developer Notification)")
        }
        let rtdn = try Members(decoded, path: "message.data.")
        let packageName = try rtdn.text("packageName")
        guard let at = try rtdn.millis("eventTimeMillis", digitStrings: true) else { throw RequestProblem("message.data.eventTimeMillis is required") }
        let (event, token) = try event(rtdn, at: at, products: products)
        let notification = StoreNotification(source: .playStore, notificationId: messageId, originalTransactionId: token, event: event,
                                             text: String(decoding: body, as: UTF8.self))
        return (notification, try lookup(rtdn, packageName: packageName, token: token, event: event))
    }

    /// What the Play Developer API is asked after this RTDN: the subscription or the one-time
    /// purchase of a known type. A voided purchase is final as it stands (the API's voided
    /// purchases are its own list); a test or unknown notification names no purchase.
    private static func lookup(_ rtdn: Members, packageName: String, token: String?, event: LifecycleEvent)
        throws(RequestProblem) -> PlayLookup? {
        guard let token, event.storeType != "VOIDED_PURCHASE" else { return nil }
        if try rtdn.member("subscriptionNotification") != nil { return .subscription(packageName: packageName, token: token) }
        if let note = try rtdn.member("oneTimeProductNotification") {
            return .product(packageName: packageName, productId: try note.text("sku"), token: token)
        }
        return nil
    }

    /// The lifecycle event of an RTDN and its purchase token (the original transaction id
    /// the device posts for a Play purchase); no token: recorded under no profile.
    private static func event(_ rtdn: Members, at: Int, products: [String: StoreProduct])
        throws(RequestProblem) -> (LifecycleEvent, String?) {
        if let voided = try rtdn.member("voidedPurchaseNotification") {
            var event = LifecycleEvent(kind: .refund, storeType: "VOIDED_PURCHASE", subtype: nil, at: at)
            event.refundedAt = at
            _ = try voided.int("refundType")
            _ = try voided.int("productType")
            _ = try voided.optionalText("orderId")
            return (event, try voided.text("purchaseToken"))
        }
        if let note = try rtdn.member("subscriptionNotification") {
            return try subscriptionEvent(note, at: at, products: products)
        }
        if let note = try rtdn.member("oneTimeProductNotification") {
            return try oneTimeEvent(note, at: at)
        }
        if try rtdn.member("testNotification") != nil {
            return (LifecycleEvent(kind: .other, storeType: testType, subtype: nil, at: at), nil)
        }
        return (LifecycleEvent(kind: .other, storeType: "UNKNOWN_NOTIFICATION", subtype: nil, at: at), nil)
    }

    private static func subscriptionEvent(_ note: Members, at: Int, products: [String: StoreProduct])
        throws(RequestProblem) -> (LifecycleEvent, String?) {
        guard let type = try note.int("notificationType") else {
            throw RequestProblem("message.data.subscriptionNotification.notificationType is required")
        }
        let token = try note.text("purchaseToken")
        guard let name = typeNames[type] else {
            // A type Google added after this server: acknowledged, kept, nothing changes.
            return (LifecycleEvent(kind: .other, storeType: "SUBSCRIPTION_NOTIFICATION_\(type)", subtype: nil, at: at), nil)
        }
        let productId = try note.text("subscriptionId")
        let mapped = kind(type)
        var event = LifecycleEvent(kind: mapped?.0 ?? .other, storeType: name, subtype: mapped?.subtype, at: at)
        event.vendorProductId = productId
        event.expiresAt = try note.millis("expiryTimeMillis", digitStrings: true)
        event.gracePeriodExpiresAt = try note.millis("gracePeriodExpiryTimeMillis", digitStrings: true)
        if event.kind == .subscribed || event.kind == .didRenew, event.expiresAt == nil {
            event.expiresAt = products[productId]?.expiry(from: at)
        }
        if event.kind == .didFailToRenew, mapped?.subtype == "GRACE_PERIOD", event.gracePeriodExpiresAt == nil {
            event.gracePeriodExpiresAt = at + defaultGraceMillis
        }
        return (event, token)
    }

    private static func oneTimeEvent(_ note: Members, at: Int) throws(RequestProblem) -> (LifecycleEvent, String?) {
        guard let type = try note.int("notificationType") else {
            throw RequestProblem("message.data.oneTimeProductNotification.notificationType is required")
        }
        let token = try note.text("purchaseToken")
        guard let name = oneTimeTypeNames[type] else {
            return (LifecycleEvent(kind: .other, storeType: "ONE_TIME_PRODUCT_NOTIFICATION_\(type)", subtype: nil, at: at), nil)
        }
        var event = LifecycleEvent(kind: type == 2 ? .revoke : .other, storeType: name, subtype: nil, at: at)
        event.vendorProductId = try note.text("sku")
        return (event, token)
    }
}
