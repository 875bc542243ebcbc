import PaywireWire

/// App Store Server Notifications v2: the decoded, verified payload in the App Store vocabulary.
enum AppStoreNotification {
    static func parse(_ body: [UInt8], verifier: AppStoreSigned) async throws(SignedProblem) -> StoreNotification {
        let signed = try invalid("invalid_request") { () throws(RequestProblem) in try NotificationRequests.document(body).text("signedPayload") }
        let payload = try await verifier.notification(signed)
        let (members, data) = try invalid { () throws(RequestProblem) in
            let members = try Members(payload)
            guard let data = try members.member("data") else { throw RequestProblem("data is required") }
            return (members, data)
        }
        let transactionJWS = try invalid { () throws(RequestProblem) in try data.text("signedTransactionInfo") }
        let transaction = try await verifier.transaction(transactionJWS)
        var renewal: JSONValue?
        if let renewalJWS = try invalid("invalid_payload", { () throws(RequestProblem) in try data.optionalText("signedRenewalInfo") }) {
            renewal = try await verifier.renewal(renewalJWS)
        }
        return try invalid { () throws(RequestProblem) in
            let info = try Members(transaction, path: "signedTransactionInfo.")
            let renewalInfo = try renewal.map { value throws(RequestProblem) in try Members(value, path: "signedRenewalInfo.") }
            let event = try event(members, try members.text("notificationType"), info, renewalInfo)
            return StoreNotification(source: "app_store", notificationId: try members.text("notificationUUID"),
                                     originalTransactionId: try info.text("originalTransactionId"), event: event,
                                     text: String(decoding: payload.encoded, as: UTF8.self))
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
    private static func event(_ payload: Members, _ typeName: String, _ transaction: Members, _ renewal: Members?)
        throws(RequestProblem) -> LifecycleEvent {
        guard let at = try payload.millis("signedDate") else { throw RequestProblem("signedDate is required") }
        let kind = NotificationKind(rawValue: typeName) ?? .other
        var event = LifecycleEvent(kind: kind, storeType: typeName, subtype: try payload.optionalText("subtype"), at: at)
        event.transactionId = try transaction.optionalText("transactionId")
        event.vendorProductId = try transaction.optionalText("productId")
        event.expiresAt = try transaction.millis("expiresDate")
        event.refundedAt = try transaction.millis("revocationDate")
        if let renewal {
            event.gracePeriodExpiresAt = try renewal.millis("gracePeriodExpiresDate")
            event.willRenew = try renewal.int("autoRenewStatus").map { $0 == 1 }
        }
        return event
    }
}
