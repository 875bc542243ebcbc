import GRDB
import PaywireModel
import PaywireWire

/// Analytics records in the store: one transaction per batch, deduplicated on event_id.
extension Store {
    /// Stores a checked batch; returns how many records were new and how many were already
    /// stored (an earlier post of the same event_id, or a repeat inside this batch). A
    /// batch's `dropped_count` is counted only when it stored something new, so a retried
    /// batch (all duplicates) does not count its evictions twice.
    func storeEvents(_ records: [EventRecord], dropped: Int) async throws -> (accepted: Int, duplicates: Int) {
        try await database.write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO events (event_id, profile_id, name, placement_id, ab_test_name, variation_id, record)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            var accepted = 0
            for record in records {
                try insert.execute(arguments: [record.eventId, record.profileId, record.name, record.placementId,
                                               record.abTestName, record.variationId, record.text])
                accepted += db.changesCount
            }
            let duplicates = records.count - accepted
            try Store.add(duplicates, to: "duplicates", db)
            try Store.add(1, to: "batches", db)
            if accepted > 0 { try Store.add(dropped, to: "dropped_reported", db) }
            return (accepted, duplicates)
        }
    }

    /// Stored records in arrival order, each once, optionally of one profile and/or name;
    /// as a JSON array's text.
    func events(profileId: String?, name: String?) async throws -> [UInt8] {
        let texts = try await database.read { db in
            var conditions: [String] = []
            var arguments: [String] = []
            if let profileId {
                conditions.append("profile_id = ?")
                arguments.append(profileId)
            }
            if let name {
                conditions.append("name = ?")
                arguments.append(name)
            }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            return try String.fetchAll(db, sql: "SELECT record FROM events \(filter) ORDER BY arrival",
                                       arguments: StatementArguments(arguments))
        }
        var body = Array("{\"events\":[".utf8)
        for (index, text) in texts.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: text.utf8)
        }
        body.append(contentsOf: "]}".utf8)
        return body
    }

    /// `{stored, duplicates, batches, dropped_reported}`.
    func eventSummary() async throws -> JSONValue {
        try await database.read { db in
            .object([
                ("stored", .int(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? 0)),
                ("duplicates", .int(try Store.counter("duplicates", db))),
                ("batches", .int(try Store.counter("batches", db))),
                ("dropped_reported", .int(try Store.counter("dropped_reported", db))),
            ])
        }
    }
}
