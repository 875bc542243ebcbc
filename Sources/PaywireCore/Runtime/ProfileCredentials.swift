import PaywireModel
import PaywireWire

/// The credentials the backend handed this device, one per profile (docs/operations/security.md):
/// kept beside the profile in `storage_dir` (the record `profile-credentials`, a file of mode
/// 0600 like every record there), sent as `x-paywire-profile-credential` on every request that
/// names its profile, and replaced by the newest the backend hands out. A credential is a
/// secret: it is never logged and never put in an error; it leaves the core only in the
/// requests it opens (with a host transport, the `host_request` that asks the host to send one).
final class ProfileCredentials {
    /// The request and answer header.
    static let header = APIHeader.profileCredential
    static let storageKey = "profile-credentials"

    /// Whether a header value can be a credential: the backend's secret token shape
    /// (`SecretTokenText`: 43 base64url characters). Anything else (a control character, a
    /// space, a line break a broken proxy or host transport let through, a text the backend
    /// never makes) is never kept, so it is never sent back in a header.
    static func isWellFormed(_ credential: String) -> Bool { SecretTokenText.isWellFormed(credential) }

    private let storage: Storage
    private let log: Log
    private var byProfile: [String: String]

    /// Reads what the device kept; a record that cannot be read counts as none (the backend
    /// issues a credential again to a profile no device holds yet, and refuses one that is held).
    init(storage: Storage, log: Log) {
        self.storage = storage
        self.log = log
        byProfile = [:]
        guard let bytes = (try? storage.read(Self.storageKey)) ?? nil,
              case .object(let object)? = try? JSONValue(parsing: bytes) else { return }
        for member in object.members {
            if case .string(let credential) = member.value, Self.isWellFormed(credential) { byProfile[member.key] = credential }
        }
    }

    /// The credential of `profileId`, if the backend handed one to this device.
    func credential(for profileId: String) -> String? { byProfile[profileId] }

    /// Keeps `credential` for `profileId` (an answer's header), on disk first. A failed write
    /// is logged without the credential; the device keeps it in memory for this run.
    func keep(_ credential: String, for profileId: String) {
        // One not of a credential's characters is dropped unlogged (its value must not reach a
        // log, and the library's size budget has no page left for a message): the next request
        // carries the credential kept before, or none, and the backend's refusal is what shows.
        guard byProfile[profileId] != credential, Self.isWellFormed(credential) else { return }
        var next = byProfile
        next[profileId] = credential
        do throws(WireError) {
            try storage.write(Self.storageKey, Self.record(next))
        } catch {
            log(.error, "the profile's credential could not be kept on disk: it holds for this run only",
                details: [("profile_id", .string(profileId)), ("code", .string(error.code.rawValue))])
        }
        byProfile = next
    }

    /// The header to send with a request naming `profileId` (none when the device holds no
    /// credential of it: the backend issues one).
    func headers(for profileId: String?) -> [(name: String, value: String)] {
        guard let profileId, let credential = byProfile[profileId] else { return [] }
        return [(Self.header, credential)]
    }

    private static func record(_ credentials: [String: String]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64 * credentials.count + 2)
        writer.object { writer in
            for (profileId, credential) in credentials.sorted(by: { $0.key < $1.key }) { writer.member(profileId, credential) }
        }
        return writer.bytes
    }
}
