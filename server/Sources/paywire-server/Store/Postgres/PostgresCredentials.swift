import PostgresNIO

/// Profiles' credentials in PostgreSQL.
extension PostgresStorage {
    func profileCredentials(_ profileId: String) async throws -> [ProfileCredentials.Kept] {
        try await rows(CredentialStatements.kept, [.text(profileId)]).map {
            ProfileCredentials.Kept(digest: try $0["digest"].decode(String.self), used: try $0["used_at"].decode(Int?.self) != nil)
        }
    }

    func profileCredentials(of profileIds: [String]) async throws -> [String: [ProfileCredentials.Kept]] {
        var kept = Dictionary(profileIds.map { ($0, [ProfileCredentials.Kept]()) }, uniquingKeysWith: { first, _ in first })
        for row in try await rows(CredentialStatements.kept(ofProfiles: profileIds.count), profileIds.map { .text($0) }) {
            kept[try row["profile_id"].decode(String.self), default: []].append(
                ProfileCredentials.Kept(digest: try row["digest"].decode(String.self), used: try row["used_at"].decode(Int?.self) != nil))
        }
        return kept
    }

    func credentialUsed(digest: String, now: Int) async throws {
        _ = try await rows(CredentialStatements.markUsed, [.int(now), .text(digest)])
    }

    func issueCredential(profileId: String, digest: String, replacingPending: Bool, now: Int) async throws {
        try await serializable { connection in
            if replacingPending { _ = try await self.rows(CredentialStatements.dropPending, [.text(profileId)], on: connection) }
            _ = try await self.rows(CredentialStatements.issue, [.text(digest), .text(profileId), .int(now)], on: connection)
        }
    }
}
