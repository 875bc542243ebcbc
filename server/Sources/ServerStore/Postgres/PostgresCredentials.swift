import PostgresNIO
import ServerDomain

/// Profiles' credentials in PostgreSQL.
extension PostgresStorage {
    package func profileCredentials(of profileIds: [String]) async throws -> [String: [ProfileCredentials.Kept]] {
        guard !profileIds.isEmpty else { return [:] }
        var kept: [String: [ProfileCredentials.Kept]] = [:]
        for row in try await rows(CredentialStatements.kept(ofProfiles: profileIds.count), profileIds.map { .text($0) }) {
            kept[try row["profile_id"].decode(String.self), default: []].append(
                ProfileCredentials.Kept(digest: try row["digest"].decode(String.self), used: try row["used_at"].decode(Int?.self) != nil))
        }
        return kept
    }

    package func credentialUsed(digest: String, now: Int) async throws {
        _ = try await rows(CredentialStatements.markUsed, [.int(now), .text(digest)])
    }

    package func issueCredential(profileId: String, digest: String, replacingPending: Bool, now: Int) async throws {
        try await serializable { connection in
            if replacingPending { _ = try await self.rows(CredentialStatements.dropPending, [.text(profileId)], on: connection) }
            _ = try await self.rows(CredentialStatements.issue, [.text(digest), .text(profileId), .int(now)], on: connection)
        }
    }
}
