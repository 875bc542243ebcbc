import GRDB

/// Profiles' credentials in SQLite.
extension SQLiteStorage {
    func profileCredentials(_ profileId: String) async throws -> [ProfileCredentials.Kept] {
        try await database.read { db in
            try Row.fetchAll(db, sql: CredentialStatements.kept, arguments: [profileId]).map {
                ProfileCredentials.Kept(digest: $0["digest"], used: ($0["used_at"] as Int?) != nil)
            }
        }
    }

    func profileCredentials(of profileIds: [String]) async throws -> [String: [ProfileCredentials.Kept]] {
        try await database.read { db in
            var kept = Dictionary(profileIds.map { ($0, [ProfileCredentials.Kept]()) }, uniquingKeysWith: { first, _ in first })
            let sql = CredentialStatements.kept(ofProfiles: profileIds.count)
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(profileIds)) {
                kept[row["profile_id"], default: []].append(ProfileCredentials.Kept(digest: row["digest"], used: (row["used_at"] as Int?) != nil))
            }
            return kept
        }
    }

    func credentialUsed(digest: String, now: Int) async throws {
        try await database.write { db in try db.execute(sql: CredentialStatements.markUsed, arguments: [now, digest]) }
    }

    func issueCredential(profileId: String, digest: String, replacingPending: Bool, now: Int) async throws {
        try await database.write { db in
            if replacingPending { try db.execute(sql: CredentialStatements.dropPending, arguments: [profileId]) }
            try db.execute(sql: CredentialStatements.issue, arguments: [digest, profileId, now])
        }
    }
}
