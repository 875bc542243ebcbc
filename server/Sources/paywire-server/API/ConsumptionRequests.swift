import Foundation
import PaywireAPI
import PaywireWire

/// The App Store's CONSUMPTION_REQUEST: the answer built and kept when the notification is
/// applied, and `GET /v1/app-store/consumption-requests`, where the operator finds them. No
/// call to Apple is made from here.
extension API {
    /// Builds and keeps the answer to a consumption request about a known transaction, once
    /// per notification id: Apple's retry of one already answered keeps nothing new, and one
    /// whose answer a crash lost between the two writes is answered then.
    func keepConsumptionRequest(_ notification: StoreNotification, profileId: String) async throws {
        guard notification.source == "app_store", notification.event.kind == .consumptionRequest,
              let originalTransactionId = notification.originalTransactionId else { return }
        let facts = try await setup.store.profileFacts(profileId)
        let consented = try await consumptionConsent(profileId)
        let now = ServerSetup.now()
        let info = Consumption.info(facts, transactionId: notification.event.transactionId, originalTransactionId: originalTransactionId,
                                    consented: consented, now: now, refundPreference: setup.refundPreference)
        try await setup.store.recordConsumptionRequest(ConsumptionRequestEntry(
            notificationId: notification.notificationId, originalTransactionId: originalTransactionId,
            transactionId: notification.event.transactionId, profileId: profileId, receivedAt: now, sendable: consented,
            consumption: String(decoding: info.json.encoded, as: UTF8.self)))
    }

    /// The profile's `consumption_data_consent`, as the device last sent its attributes; false until it did.
    private func consumptionConsent(_ profileId: String) async throws -> Bool {
        guard let attributes = try await setup.store.profileData(profileId: profileId).first(where: { $0.kind == ProfileData.Kind.attributes.rawValue })
        else { return false }
        return try JSONValue(parsing: Array(attributes.body.utf8))["consumption_data_consent"]?.asBool == true
    }

    func getConsumptionRequests(_ input: Operations.GetConsumptionRequests.Input) async throws -> Operations.GetConsumptionRequests.Output {
        if input.query.profileId?.isEmpty == true { return .badRequest(Self.invalid("profile_id must not be empty")) }
        let entries = try await setup.store.consumptionRequests(profileId: input.query.profileId)
        return .ok(.init(body: .json(.init(consumptionRequests: try entries.map(Self.consumptionEntry)))))
    }

    /// A kept request in the spec's shape; its answer is read back from the JSON it was kept as.
    static func consumptionEntry(_ entry: ConsumptionRequestEntry) throws -> Components.Schemas.ConsumptionRequestEntry {
        let info = try JSONValue(parsing: Array(entry.consumption.utf8))
        func number(_ key: String) throws -> Int {
            guard let value = info[key]?.asInt else { throw StorageProblem("consumption request \(entry.notificationId): \(key) is not a number") }
            return value
        }
        func flag(_ key: String) throws -> Bool {
            guard let value = info[key]?.asBool else { throw StorageProblem("consumption request \(entry.notificationId): \(key) is not a boolean") }
            return value
        }
        return .init(
            notificationId: entry.notificationId, originalTransactionId: entry.originalTransactionId, transactionId: entry.transactionId,
            profileId: entry.profileId, receivedAt: Date(timeIntervalSince1970: Double(entry.receivedAt) / 1000), sendable: entry.sendable,
            consumptionRequest: .init(
                customerConsented: try flag("customerConsented"), consumptionStatus: try number("consumptionStatus"),
                platform: try number("platform"), sampleContentProvided: try flag("sampleContentProvided"),
                deliveryStatus: try number("deliveryStatus"), appAccountToken: info["appAccountToken"]?.asString ?? "",
                accountTenure: try number("accountTenure"), playTime: try number("playTime"),
                lifetimeDollarsPurchased: try number("lifetimeDollarsPurchased"), lifetimeDollarsRefunded: try number("lifetimeDollarsRefunded"),
                userStatus: try number("userStatus"), refundPreference: try number("refundPreference")))
    }
}
