import PostgresNIO
import ServerDomain

/// Operators' dashboard sessions and audit records in PostgreSQL.
extension PostgresStorage {
    package func startSession(digest: String, _ session: OperatorSession, now: Int) async throws {
        try await serializable { connection in
            _ = try await self.rows(OperatorStatements.dropEnded, [.int(now)], on: connection)
            _ = try await self.rows(OperatorStatements.start, [.text(digest), .text(session.keyId), .text(session.keyBinding), .int(now),
                                                                        .int(session.expiresAt)],
                                    on: connection)
        }
    }

    package func session(digest: String, now: Int) async throws -> OperatorSession? {
        guard let row = try await rows(OperatorStatements.read, [.text(digest), .int(now)]).first else { return nil }
        return OperatorSession(keyId: try row["key_id"].decode(String.self), keyBinding: try row["key_binding"].decode(String.self),
                               expiresAt: try row["expires_at"].decode(Int.self))
    }

    package func endSession(digest: String) async throws {
        _ = try await rows(OperatorStatements.end, [.text(digest)])
    }

    package func keepAudit(_ record: AuditRecord) async throws {
        _ = try await rows(OperatorStatements.keepAudit, [.int(record.at), .text(record.keyId), .text(record.action), .text(record.subject),
                                                         .int(record.status)])
    }

    package func auditRecords(limit: Int) async throws -> [AuditRecord] {
        try await rows(OperatorStatements.latestAudit, [.int(limit)]).map {
            AuditRecord(at: try $0["at"].decode(Int.self), keyId: try $0["key_id"].decode(String.self), action: try $0["action"].decode(String.self),
                        subject: try $0["subject"].decode(String.self), status: try $0["status"].decode(Int.self))
        }
    }
}
