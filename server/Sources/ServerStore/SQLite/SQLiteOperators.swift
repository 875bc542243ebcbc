import GRDB
import ServerDomain

/// Operators' dashboard sessions and audit records in SQLite.
extension SQLiteStorage {
    package func startSession(digest: String, _ session: OperatorSession, now: Int) async throws {
        try await database.write { db in
            try db.execute(sql: OperatorStatements.dropEnded, arguments: [now])
            try db.execute(sql: OperatorStatements.start, arguments: [digest, session.keyId, session.keyBinding, now, session.expiresAt])
        }
    }

    package func session(digest: String, now: Int) async throws -> OperatorSession? {
        try await database.read { db in
            try Row.fetchOne(db, sql: OperatorStatements.read, arguments: [digest, now]).map {
                OperatorSession(keyId: $0["key_id"], keyBinding: $0["key_binding"], expiresAt: $0["expires_at"])
            }
        }
    }

    package func endSession(digest: String) async throws {
        try await database.write { db in try db.execute(sql: OperatorStatements.end, arguments: [digest]) }
    }

    package func keepAudit(_ record: AuditRecord) async throws {
        try await database.write { db in
            try db.execute(sql: OperatorStatements.keepAudit, arguments: [record.at, record.keyId, record.action, record.subject, record.status])
        }
    }

    package func auditRecords(limit: Int) async throws -> [AuditRecord] {
        try await database.read { db in
            try Row.fetchAll(db, sql: OperatorStatements.latestAudit, arguments: [limit]).map {
                AuditRecord(at: $0["at"], keyId: $0["key_id"], action: $0["action"], subject: $0["subject"], status: $0["status"])
            }
        }
    }
}
