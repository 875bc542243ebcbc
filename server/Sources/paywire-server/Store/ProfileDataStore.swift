import GRDB

extension Store {
    /// Keeps `post` as the latest of its kind for its profile (and source), once per event_id.
    /// Returns false when the event_id was stored before.
    func storeProfileData(_ post: ProfileData.Post) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO profile_records (event_id, profile_id, kind) VALUES (?, ?, ?)",
                           arguments: [post.eventId, post.profileId, post.kind.rawValue])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: """
                INSERT INTO profile_data (profile_id, kind, source, body) VALUES (?, ?, ?, ?)
                ON CONFLICT(profile_id, kind, source) DO UPDATE SET body = excluded.body
                """, arguments: [post.profileId, post.kind.rawValue, post.source, String(decoding: post.body.encoded, as: UTF8.self)])
            return true
        }
    }

    /// `/_dev/profile-data?profile_id=`: `{attributes, integration_identifiers, attributions{source: ...}}`.
    func profileData(profileId: String) async throws -> JSONValue {
        try await database.read { db in
            var attributes = JSONValue.object([]), ids = JSONValue.object([])
            var attributions: [(String, JSONValue)] = []
            for row in try Row.fetchAll(db, sql: "SELECT kind, source, body FROM profile_data WHERE profile_id = ? ORDER BY kind, source",
                                        arguments: [profileId]) {
                let kind: String = row["kind"], source: String = row["source"], text: String = row["body"]
                let body = (try? Core.parseJSON(Array(text.utf8))) ?? .null
                switch ProfileData.Kind(rawValue: kind) {
                case .attributes?: attributes = body
                case .integrationIdentifiers?: ids = body
                case .attribution?: attributions.append((source, body))
                case nil: continue
                }
            }
            return .object([("attributes", attributes), ("integration_identifiers", ids), ("attributions", .object(attributions))])
        }
    }

    static func migrateProfileData(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE profile_records (event_id TEXT PRIMARY KEY, profile_id TEXT NOT NULL, kind TEXT NOT NULL);
            CREATE TABLE profile_data (profile_id TEXT NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, body TEXT NOT NULL,
                PRIMARY KEY (profile_id, kind, source));
            """)
    }
}
