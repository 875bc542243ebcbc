import PostgresNIO

/// Operators' dashboard sessions in PostgreSQL.
extension PostgresStorage {
    func startSession(digest: String, _ session: OperatorSession, now: Int) async throws {
        try await serializable { connection in
            _ = try await self.rows(SessionStatements.dropEnded, [.int(now)], on: connection)
            _ = try await self.rows(SessionStatements.start, [.text(digest), .text(session.keyId), .int(now), .int(session.expiresAt)],
                                    on: connection)
        }
    }

    func session(digest: String, now: Int) async throws -> OperatorSession? {
        guard let row = try await rows(SessionStatements.read, [.text(digest), .int(now)]).first else { return nil }
        return OperatorSession(keyId: try row["key_id"].decode(String.self), expiresAt: try row["expires_at"].decode(Int.self))
    }

    func endSession(digest: String) async throws {
        _ = try await rows(SessionStatements.end, [.text(digest)])
    }
}
