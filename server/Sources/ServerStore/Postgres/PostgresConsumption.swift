import PostgresNIO

/// App Store consumption requests in PostgreSQL.
extension PostgresStorage {
    package func recordConsumptionRequest(_ entry: ConsumptionRequestEntry) async throws {
        _ = try await rows(Statements.insertConsumptionRequest, [
            .text(entry.notificationId), .text(entry.originalTransactionId), .text(entry.transactionId), .text(entry.profileId),
            .int(entry.receivedAt), .bool(entry.sendable), .text(entry.consumption)])
    }

    package func consumptionRequests(profileId: String?) async throws -> [ConsumptionRequestEntry] {
        try await rows(Statements.consumptionRequests(ofOneProfile: profileId != nil), profileId.map { [.text($0)] } ?? []).map {
            ConsumptionRequestEntry(notificationId: try $0["notification_id"].decode(String.self),
                                    originalTransactionId: try $0["original_transaction_id"].decode(String.self),
                                    transactionId: try $0["transaction_id"].decode(String?.self), profileId: try $0["profile_id"].decode(String.self),
                                    receivedAt: try $0["received_at"].decode(Int.self), sendable: try $0["sendable"].decode(Bool.self),
                                    consumption: try $0["consumption"].decode(String.self))
        }
    }
}
