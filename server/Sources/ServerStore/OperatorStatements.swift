/// The statements of operators' dashboard sessions and audit records, which both engines run as
/// they are.
package enum OperatorStatements {
    package static let start = "INSERT INTO operator_sessions (digest, key_id, key_binding, started_at, expires_at) VALUES (?, ?, ?, ?, ?)"
    package static let dropEnded = "DELETE FROM operator_sessions WHERE expires_at <= ?"
    package static let read = "SELECT key_id, key_binding, expires_at FROM operator_sessions WHERE digest = ? AND expires_at > ?"
    package static let end = "DELETE FROM operator_sessions WHERE digest = ?"
    package static let keepAudit = "INSERT INTO audit_records (at, key_id, action, subject, status) VALUES (?, ?, ?, ?, ?)"
    package static let latestAudit = "SELECT at, key_id, action, subject, status FROM audit_records ORDER BY arrival DESC LIMIT ?"
}
