import GRDB

/// App Store consumption requests in SQLite.
extension SQLiteStorage {
    package func recordConsumptionRequest(_ entry: ConsumptionRequestEntry) async throws {
        try await database.write { db in
            try db.execute(sql: Statements.insertConsumptionRequest, arguments: [
                entry.notificationId, entry.originalTransactionId, entry.transactionId, entry.profileId, entry.receivedAt,
                entry.sendable, entry.consumption])
        }
    }

    package func consumptionRequests(profileId: String?) async throws -> [ConsumptionRequestEntry] {
        try await database.read { db in
            try Row.fetchAll(db, sql: Statements.consumptionRequests(ofOneProfile: profileId != nil),
                             arguments: StatementArguments(profileId.map { [$0] } ?? [])).map {
                ConsumptionRequestEntry(notificationId: $0["notification_id"], originalTransactionId: $0["original_transaction_id"],
                                        transactionId: $0["transaction_id"], profileId: $0["profile_id"], receivedAt: $0["received_at"],
                                        sendable: $0["sendable"], consumption: $0["consumption"])
            }
        }
    }
}
