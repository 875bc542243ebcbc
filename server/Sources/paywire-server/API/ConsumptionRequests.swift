import PaywireModel
import PaywireWire
import ServerDomain
import ServerStore

/// The App Store's CONSUMPTION_REQUEST: the answer built and kept when the notification is
/// applied, and `GET /v1/app-store/consumption-requests`, where the operator finds them. No
/// call to Apple is made from here.
extension API {
    /// Builds and keeps the answer to a consumption request about a known transaction, once
    /// per notification id: Apple's retry of one already answered keeps nothing new, and one
    /// whose answer a crash lost between the two writes is answered then.
    func keepConsumptionRequest(_ notification: StoreNotification, profileId: String) async throws {
        guard notification.source == .appStore, notification.event.kind == .consumptionRequest,
              let originalTransactionId = notification.originalTransactionId else { return }
        let facts = try await setup.store.profileFacts(profileId)
        let consented = try await consumptionConsent(profileId)
        let now = clock.nowMilliseconds()
        let info = Consumption.info(facts, transactionId: notification.event.transactionId, originalTransactionId: originalTransactionId,
                                    consented: consented, now: now, refundPreference: setup.refundPreference)
        try await setup.store.recordConsumptionRequest(ConsumptionRequestEntry(
            notificationId: notification.notificationId, originalTransactionId: originalTransactionId,
            transactionId: notification.event.transactionId, profileId: profileId, receivedAt: now, sendable: consented,
            consumption: String(decoding: info.json.encoded, as: UTF8.self)))
    }

    /// The profile's `consumption_data_consent`, as the device last sent its attributes; false until it did.
    private func consumptionConsent(_ profileId: String) async throws -> Bool {
        guard let attributes = try await setup.store.profileData(profileId: profileId).first(where: { $0.kind == ProfileDataRecord.Kind.attributes.rawValue })
        else { return false }
        return try JSONValue(parsing: Array(attributes.body.utf8))["consumption_data_consent"]?.asBool == true
    }

    func getConsumptionRequests(profileId: String?) async throws -> Answer {
        if profileId?.isEmpty == true { return .invalid("profile_id must not be empty") }
        let entries = try await setup.store.consumptionRequests(profileId: profileId)
        return .json(.ok, .object([("consumption_requests", .array(try entries.map(Self.consumptionEntry)))]))
    }

    /// A kept request in the spec's shape (`ConsumptionRequestEntry`); its answer is read back
    /// from the JSON it was kept as, by the reader of what wrote it.
    static func consumptionEntry(_ entry: ConsumptionRequestEntry) throws -> JSONValue {
        let info = try ConsumptionInfo(kept: try JSONValue(parsing: Array(entry.consumption.utf8)))
        var members: [(String, JSONValue)] = [("notification_id", .string(entry.notificationId)),
                                              ("original_transaction_id", .string(entry.originalTransactionId))]
        if let transactionId = entry.transactionId { members.append(("transaction_id", .string(transactionId))) }
        members += [("profile_id", .string(entry.profileId)), ("received_at", .string(ISODate.format(milliseconds: entry.receivedAt))),
                    ("sendable", .bool(entry.sendable)), ("consumption_request", info.json)]
        return .object(members)
    }
}
