/// The SQL of profile credentials, the same text for both engines.
package enum CredentialStatements {
    /// Several profiles' credentials in one statement (one `?` each, at least one), naming the
    /// profile of each.
    package static func kept(ofProfiles count: Int) -> String {
        "SELECT profile_id, digest, used_at FROM profile_credentials WHERE profile_id IN ("
            + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }
    package static let markUsed = "UPDATE profile_credentials SET used_at = ? WHERE digest = ? AND used_at IS NULL"
    /// A profile no device holds yet keeps only its newest pending credential.
    package static let dropPending = "DELETE FROM profile_credentials WHERE profile_id = ? AND used_at IS NULL"
    package static let issue = "INSERT INTO profile_credentials (digest, profile_id, issued_at) VALUES (?, ?, ?)"
}
