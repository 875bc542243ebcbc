/// The statements of operators' dashboard sessions, which both engines run as they are.
enum SessionStatements {
    static let start = "INSERT INTO operator_sessions (digest, key_id, started_at, expires_at) VALUES (?, ?, ?, ?)"
    static let dropEnded = "DELETE FROM operator_sessions WHERE expires_at <= ?"
    static let read = "SELECT key_id, expires_at FROM operator_sessions WHERE digest = ? AND expires_at > ?"
    static let end = "DELETE FROM operator_sessions WHERE digest = ?"
}
