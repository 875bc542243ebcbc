import Foundation
import PaywireModel
import PaywireWire

/// Typed reads of a notification's members: a member of the wrong type is a problem naming
/// it, never a guess, so whatever the spec calls invalid is refused with 400.
package struct Members {
    package let object: JSONValue
    /// Where the object sits, for messages (`subscriptionNotification.`).
    package let path: String

    package init(_ object: JSONValue, path: String = "") throws(RequestProblem) {
        guard object.isObject else { throw RequestProblem("\(path.isEmpty ? "the body" : String(path.dropLast())) must be a JSON object") }
        self.object = object
        self.path = path
    }

    package func text(_ key: String) throws(RequestProblem) -> String {
        guard let value = try optionalText(key) else { throw RequestProblem("\(path)\(key) is required") }
        return value
    }

    /// A non-empty string, or nil when left out or null.
    package func optionalText(_ key: String) throws(RequestProblem) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard let text = value.asString, !text.isEmpty else { throw RequestProblem("\(path)\(key) must be a non-empty string") }
        return text
    }

    /// Milliseconds since the epoch: a whole number >= 0, or (as Google writes its int64s) a
    /// string of digits.
    package func millis(_ key: String, digitStrings: Bool = false) throws(RequestProblem) -> Int? {
        guard let value = object[key], value != .null else { return nil }
        let parsed = digitStrings ? (value.asInt ?? value.asString.flatMap { Int($0) }) : value.asInt
        guard let parsed, (0...RecordRules.maxSafeInteger).contains(parsed) else {
            throw RequestProblem("\(path)\(key) must be a whole number of milliseconds >= 0")
        }
        return parsed
    }

    package func flag(_ key: String) throws(RequestProblem) -> Bool? {
        guard let value = object[key], value != .null else { return nil }
        guard let flag = value.asBool else { throw RequestProblem("\(path)\(key) must be a boolean") }
        return flag
    }

    package func int(_ key: String) throws(RequestProblem) -> Int? {
        guard let value = object[key], value != .null else { return nil }
        guard let number = value.asInt else { throw RequestProblem("\(path)\(key) must be a whole number") }
        return number
    }

    package func member(_ key: String) throws(RequestProblem) -> Members? {
        guard let value = object[key], value != .null else { return nil }
        return try Members(value, path: "\(path)\(key).")
    }
}

package enum NotificationRequests {
    package static func document(_ body: [UInt8]) throws(RequestProblem) -> Members {
        try document(parsed: try? JSONValue(parsing: body))
    }

    /// The same, of a body the route parsed once already (nil: it was no JSON).
    package static func document(parsed: JSONValue?) throws(RequestProblem) -> Members {
        guard let parsed else { throw RequestProblem("the body must be a JSON object") }
        return try Members(parsed)
    }

    /// `POST /v1/notifications/test-store`: the App Store vocabulary as plain JSON.
    package static func testStore(_ body: [UInt8], now: Int) throws(RequestProblem) -> StoreNotification {
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
        return StoreNotification(source: .test, notificationId: try members.text("notification_id"),
                                 originalTransactionId: try members.text("original_transaction_id"), event: event,
                                 text: String(decoding: body, as: UTF8.self))
    }
}
