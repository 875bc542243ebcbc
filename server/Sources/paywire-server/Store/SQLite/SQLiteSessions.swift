import GRDB

/// Operators' dashboard sessions in SQLite.
extension SQLiteStorage {
    func startSession(digest: String, _ session: OperatorSession, now: Int) async throws {
        try await database.write { db in
            try db.execute(sql: SessionStatements.dropEnded, arguments: [now])
            try db.execute(sql: SessionStatements.start, arguments: [digest, session.keyId, now, session.expiresAt])
        }
    }

    func session(digest: String, now: Int) async throws -> OperatorSession? {
        try await database.read { db in
            try Row.fetchOne(db, sql: SessionStatements.read, arguments: [digest, now]).map {
                OperatorSession(keyId: $0["key_id"], expiresAt: $0["expires_at"])
            }
        }
    }

    func endSession(digest: String) async throws {
        try await database.write { db in try db.execute(sql: SessionStatements.end, arguments: [digest]) }
    }
}
