import PaywireModel
import PaywireWire

/// App Store Server Notifications v2: the decoded, verified payload in the App Store vocabulary.
/// Every type is answered: one with a transaction applies to its grant (or is recorded), one
/// without (TEST, RENEWAL_EXTENSION SUMMARY, EXTERNAL_PURCHASE_TOKEN, any other) is recorded
/// under no profile, since Apple retries anything but a 2xx for days.
package enum AppStoreNotification {
    package static func parse(_ body: [UInt8], verifier: AppStoreSigned) async throws(SignedProblem) -> StoreNotification {
        let signed = try invalid("invalid_request") { () throws(RequestProblem) in try NotificationRequests.document(body).text("signedPayload") }
        let payload = try await verifier.notification(signed)
        let (members, typeName, notificationId, data, at) = try invalid { () throws(RequestProblem) in
            let members = try Members(payload)
            guard let at = try members.millis("signedDate") else { throw RequestProblem("signedDate is required") }
            return (members, try members.text("notificationType"), try members.text("notificationUUID"), try members.member("data"), at)
        }
        let text = String(decoding: payload.encoded, as: UTF8.self)
        let subtype = try invalid { () throws(RequestProblem) in try members.optionalText("subtype") }
        let transactionText = try invalid { () throws(RequestProblem) -> String? in try data?.optionalText("signedTransactionInfo") }
        guard let transactionJWS = transactionText else {
            let event = LifecycleEvent(kind: .other, storeType: typeName, subtype: subtype, at: at)
            return StoreNotification(source: .appStore, notificationId: notificationId, originalTransactionId: nil, event: event, text: text)
        }
        let transaction = try await verifier.transaction(transactionJWS)
        var renewal: JSONValue?
        let renewalText = try invalid { () throws(RequestProblem) -> String? in try data?.optionalText("signedRenewalInfo") }
        if let renewalJWS = renewalText {
            renewal = try await verifier.renewal(renewalJWS)
        }
        return try invalid { () throws(RequestProblem) in
            let info = try Members(transaction, path: "signedTransactionInfo.")
            let renewalInfo = try renewal.map { value throws(RequestProblem) in try Members(value, path: "signedRenewalInfo.") }
            let event = try event(typeName, subtype, at, info, renewalInfo)
            return StoreNotification(source: .appStore, notificationId: notificationId,
                                     originalTransactionId: try info.text("originalTransactionId"), event: event, text: text)
        }
    }

    /// A request problem of a verified payload as a 400 with `code`.
    private static func invalid<T>(_ code: String = "invalid_payload", _ read: () throws(RequestProblem) -> T) throws(SignedProblem) -> T {
        do {
            return try read()
        } catch {
            throw SignedProblem(code, error.message)
        }
    }

    /// The lifecycle event of a verified payload, its transaction and its renewal info.
    private static func event(_ typeName: String, _ subtype: String?, _ at: Int, _ transaction: Members, _ renewal: Members?)
        throws(RequestProblem) -> LifecycleEvent {
        let kind = NotificationKind(rawValue: typeName) ?? .other
        var event = LifecycleEvent(kind: kind, storeType: typeName, subtype: subtype, at: at)
        event.transactionId = try transaction.optionalText("transactionId")
        event.vendorProductId = try transaction.optionalText("productId")
        event.expiresAt = try transaction.millis("expiresDate")
        event.refundedAt = try transaction.millis("revocationDate")
        if let renewal {
            event.gracePeriodExpiresAt = try renewal.millis("gracePeriodExpiresDate")
            event.willRenew = try renewal.int("autoRenewStatus").map { $0 == 1 }
            event.autoRenewProductId = try renewal.optionalText("autoRenewProductId")
        }
        return event
    }
}
