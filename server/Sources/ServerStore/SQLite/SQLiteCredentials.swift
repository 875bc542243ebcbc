import GRDB
import ServerDomain

/// Profiles' credentials in SQLite.
extension SQLiteStorage {
    package func profileCredentials(of profileIds: [String]) async throws -> [String: [ProfileCredentials.Kept]] {
        guard !profileIds.isEmpty else { return [:] }
        return try await database.read { db in
            var kept: [String: [ProfileCredentials.Kept]] = [:]
            let sql = CredentialStatements.kept(ofProfiles: profileIds.count)
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(profileIds)) {
                kept[row["profile_id"], default: []].append(ProfileCredentials.Kept(digest: row["digest"], used: (row["used_at"] as Int?) != nil))
            }
            return kept
        }
    }

    package func credentialUsed(digest: String, now: Int) async throws {
        try await database.write { db in try db.execute(sql: CredentialStatements.markUsed, arguments: [now, digest]) }
    }

    package func issueCredential(profileId: String, digest: String, replacingPending: Bool, now: Int) async throws {
        try await database.write { db in
            if replacingPending { try db.execute(sql: CredentialStatements.dropPending, arguments: [profileId]) }
            try db.execute(sql: CredentialStatements.issue, arguments: [digest, profileId, now])
        }
    }
}
