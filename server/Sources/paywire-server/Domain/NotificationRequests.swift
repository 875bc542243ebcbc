import Foundation
import PaywireModel
import PaywireWire

/// Typed reads of a notification's members: a member of the wrong type is a problem naming
/// it, never a guess, so whatever the spec calls invalid is refused with 400.
struct Members {
    let object: JSONValue
    /// Where the object sits, for messages (`subscriptionNotification.`).
    let path: String

    init(_ object: JSONValue, path: String = "") throws(RequestProblem) {
        guard object.isObject else { throw RequestProblem("\(path.isEmpty ? "the body" : String(path.dropLast())) must be a JSON object") }
        self.object = object
        self.path = path
    }

    func text(_ key: String) throws(RequestProblem) -> String {
        guard let value = try optionalText(key) else { throw RequestProblem("\(path)\(key) is required") }
        return value
    }

    /// A non-empty string, or nil when left out or null.
    func optionalText(_ key: String) throws(RequestProblem) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard let text = value.asString, !text.isEmpty else { throw RequestProblem("\(path)\(key) must be a non-empty string") }
        return text
    }

    /// Milliseconds since the epoch: a whole number >= 0, or (as Google writes its int64s) a
    /// string of digits.
    func millis(_ key: String, digitStrings: Bool = false) throws(RequestProblem) -> Int? {
        guard let value = object[key], value != .null else { return nil }
        let parsed = digitStrings ? (value.asInt ?? value.asString.flatMap { Int($0) }) : value.asInt
        guard let parsed, (0...EventBatch.maxSafeInteger).contains(parsed) else {
            throw RequestProblem("\(path)\(key) must be a whole number of milliseconds >= 0")
        }
        return parsed
    }

    func flag(_ key: String) throws(RequestProblem) -> Bool? {
        guard let value = object[key], value != .null else { return nil }
        guard let flag = value.asBool else { throw RequestProblem("\(path)\(key) must be a boolean") }
        return flag
    }

    func int(_ key: String) throws(RequestProblem) -> Int? {
        guard let value = object[key], value != .null else { return nil }
        guard let number = value.asInt else { throw RequestProblem("\(path)\(key) must be a whole number") }
        return number
    }

    func member(_ key: String) throws(RequestProblem) -> Members? {
        guard let value = object[key], value != .null else { return nil }
        return try Members(value, path: "\(path)\(key).")
    }
}

enum NotificationRequests {
    static func document(_ body: [UInt8]) throws(RequestProblem) -> Members {
        guard let document = try? JSONValue(parsing: body) else { throw RequestProblem("the body must be a JSON object") }
        return try Members(document)
    }

    /// `POST /v1/notifications/test-store`: the App Store vocabulary as plain JSON.
    static func testStore(_ body: [UInt8], now: Int) throws(RequestProblem) -> StoreNotification {
        let members = try document(body)
        let typeName = try members.text("type")
        guard let kind = NotificationKind(rawValue: typeName), kind != .other else {
            let names = NotificationKind.allCases.filter { $0 != .other }.map(\.rawValue)
            throw RequestProblem("type must be one of \(names.joined(separator: ", "))")
        }
        let reasonText = try members.optionalText("cancellation_reason")
        let reason = reasonText.flatMap(CancellationReason.init(rawValue:))
        if reasonText != nil, reason == nil {
            throw RequestProblem("cancellation_reason must be one of \(CancellationReason.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var event = LifecycleEvent(kind: kind, storeType: typeName, subtype: try members.optionalText("subtype"),
                                   at: try members.millis("event_at") ?? now)
        event.transactionId = try members.optionalText("transaction_id")
        event.vendorProductId = try members.optionalText("product_id")
        event.expiresAt = try members.millis("expires_at")
        event.gracePeriodExpiresAt = try members.millis("grace_period_expires_at")
        event.refundedAt = try members.millis("refunded_at")
        event.willRenew = try members.flag("will_renew")
        event.cancellationReason = reason
        return StoreNotification(source: "test", notificationId: try members.text("notification_id"),
                                 originalTransactionId: try members.text("original_transaction_id"), event: event,
                                 text: String(decoding: body, as: UTF8.self))
    }

    /// Play's subscription notification types (1-13) in the App Store vocabulary; nil: recorded
    /// only (8 price change confirmed, 9 deferred, 10 paused, 11 pause schedule changed).
    static func playKind(_ type: Int) -> (NotificationKind, subtype: String?)? {
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

    static let playTypeNames = [
        1: "SUBSCRIPTION_RECOVERED", 2: "SUBSCRIPTION_RENEWED", 3: "SUBSCRIPTION_CANCELED", 4: "SUBSCRIPTION_PURCHASED",
        5: "SUBSCRIPTION_ON_HOLD", 6: "SUBSCRIPTION_IN_GRACE_PERIOD", 7: "SUBSCRIPTION_RESTARTED",
        8: "SUBSCRIPTION_PRICE_CHANGE_CONFIRMED", 9: "SUBSCRIPTION_DEFERRED", 10: "SUBSCRIPTION_PAUSED",
        11: "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED", 12: "SUBSCRIPTION_REVOKED", 13: "SUBSCRIPTION_EXPIRED",
    ]

    /// Play gives no expiry in a notification and there is no Play API here: a renewal or
    /// purchase lasts `expiryTimeMillis` when the sender adds it, else one period of the
    /// product from the event by the calendar; a grace period ends at
    /// `gracePeriodExpiryTimeMillis`, else 3 days (Play's shortest) after the event.
    static let playDefaultGraceMillis = 3 * 24 * 3600 * 1000

    /// `POST /v1/notifications/play`: a Pub/Sub push of a Real-time Developer Notification.
    static func play(_ body: [UInt8], products: [String: StoreProduct]) throws(RequestProblem) -> StoreNotification {
        let push = try document(body)
        _ = try push.text("subscription")
        guard let message = try push.member("message") else { throw RequestProblem("message is required") }
        let messageId = try message.text("messageId")
        guard let data = Base64URL.decode(try message.text("data"), url: false),
              let decoded = try? JSONValue(parsing: Array(data)) else {
            throw RequestProblem("message.data must be base64 of a JSON object (a Real-time Developer Notification)")
        }
        let rtdn = try Members(decoded, path: "message.data.")
        _ = try rtdn.text("packageName")
        guard let at = try rtdn.millis("eventTimeMillis", digitStrings: true) else { throw RequestProblem("message.data.eventTimeMillis is required") }
        let (event, token) = try playEvent(rtdn, at: at, products: products)
        return StoreNotification(source: "play_store", notificationId: messageId, originalTransactionId: token, event: event,
                                 text: String(decoding: body, as: UTF8.self))
    }

    /// The lifecycle event of an RTDN and its purchase token (the original transaction id
    /// the device posts for a Play purchase).
    private static func playEvent(_ rtdn: Members, at: Int, products: [String: StoreProduct])
        throws(RequestProblem) -> (LifecycleEvent, String) {
        if let voided = try rtdn.member("voidedPurchaseNotification") {
            var event = LifecycleEvent(kind: .refund, storeType: "VOIDED_PURCHASE", subtype: nil, at: at)
            event.refundedAt = at
            _ = try voided.int("refundType")
            _ = try voided.int("productType")
            _ = try voided.optionalText("orderId")
            return (event, try voided.text("purchaseToken"))
        }
        guard let note = try rtdn.member("subscriptionNotification") else {
            throw RequestProblem("message.data needs a subscriptionNotification or a voidedPurchaseNotification")
        }
        guard let type = try note.int("notificationType"), let name = playTypeNames[type] else {
            throw RequestProblem("message.data.subscriptionNotification.notificationType must be 1 to 13")
        }
        let token = try note.text("purchaseToken"), productId = try note.text("subscriptionId")
        let mapped = playKind(type)
        var event = LifecycleEvent(kind: mapped?.0 ?? .other, storeType: name, subtype: mapped?.subtype, at: at)
        event.vendorProductId = productId
        event.expiresAt = try note.millis("expiryTimeMillis", digitStrings: true)
        event.gracePeriodExpiresAt = try note.millis("gracePeriodExpiryTimeMillis", digitStrings: true)
        if event.kind == .subscribed || event.kind == .didRenew, event.expiresAt == nil {
            event.expiresAt = products[productId]?.expiry(from: at)
        }
        if event.kind == .didFailToRenew, mapped?.subtype == "GRACE_PERIOD", event.gracePeriodExpiresAt == nil {
            event.gracePeriodExpiresAt = at + playDefaultGraceMillis
        }
        return (event, token)
    }
}

/// Base64 and base64url (JWS segments), padded or not.
enum Base64URL {
    static func decode(_ text: String, url: Bool = true) -> Data? {
        var standard = url ? text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") : text
        if url {
            while standard.count % 4 != 0 { standard += "=" }
        }
        return Data(base64Encoded: standard)
    }
}
