import PaywireWire

/// The profile a backend answer carries (`Profile` in api/openapi.yaml): written once, from the
/// backend's snapshot, into the bytes every answer that carries it splices in. Its ETag is
/// taken from those same bytes, so it changes exactly when they do. The device reads it with
/// `RemoteProfile.parse(profile:)`, the reader of what `RemoteProfile.Snapshot.json` writes.
public struct ProfileAnswer: Sendable {
    /// The `Profile` object's compact JSON.
    public let bytes: [UInt8]

    /// The profile as the backend knows it now; `isActive` says which grants a store reported
    /// on (the device judges the others by their times).
    public init(_ snapshot: RemoteProfile.Snapshot, customerUserId: String?, isActive: (Profile.Grant) -> Bool?) {
        let profile = JSONWriter.encode(snapshot.json(customerUserId: customerUserId, isActive: isActive))
        var writer = JSONWriter(reservingCapacity: profile.count + 16)
        writer.object { writer in
            writer.key("profile")
            writer.raw(profile)
        }
        bytes = profile
        document = writer.bytes
        etag = ServableBundle.etag(of: document)
    }

    /// `{"profile": {...}}`: the body of `GET /v1/profiles/{id}`.
    public let document: [UInt8]

    /// The strong ETag of `document`: the same profile gives the same tag in every replica.
    public let etag: String
}
