import PaywireModel
import PaywireWire

/// What every record says about where it comes from: the install, the session, the app and
/// the SDK. Made once per client.
struct RecordSource: Sendable {
    let installId: String
    /// One per client: a session is one run of the app with Paywire.
    let sessionId: String
    let platform: String?
    let appVersion: String?
    let wrapper: (name: String, version: String)?
}

/// The wire form of one analytics record (`#/$defs/analytics_record` in the schema, the
/// `Record` of `POST /v1/events` in api/openapi.yaml).
enum AnalyticsRecord {
    static func encode(eventId: String, seq: Int, createdAt: Int, name: String, profile: Profile, source: RecordSource,
                       params: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 512)
        writer.object { writer in
            writer.member("event_id", eventId)
            writer.member("install_id", source.installId)
            writer.member("profile_id", profile.profileId)
            if let customerUserId = profile.customerUserId { writer.member("customer_user_id", customerUserId) }
            writer.member("session_id", source.sessionId)
            writer.member("created_at", createdAt)
            writer.member("seq", seq)
            writer.member("name", name)
            writer.key("params")
            writer.object(params)
            writer.key("app")
            writer.object { writer in
                if let platform = source.platform { writer.member("platform", platform) }
                if let appVersion = source.appVersion { writer.member("app_version", appVersion) }
            }
            writer.key("sdk")
            writer.object { writer in
                writer.member("version", PaywireVersion.library)
                if let wrapper = source.wrapper {
                    writer.key("wrapper")
                    writer.object { writer in
                        writer.member("name", wrapper.name)
                        writer.member("version", wrapper.version)
                    }
                }
            }
        }
        return writer.bytes
    }

    /// `{"records": [...], "dropped_count": n}`: the bodies as kept, spliced, never re-encoded.
    static func batch(_ records: [OutboxRecord], droppedCount: Int) -> [UInt8] {
        var body: [UInt8] = Array(#"{"records":["#.utf8)
        body.reserveCapacity(records.reduce(64) { $0 + $1.body.count + 1 })
        for (index, record) in records.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: record.body)
        }
        body.append(contentsOf: "]".utf8)
        if droppedCount > 0 { body.append(contentsOf: ",\"dropped_count\":\(droppedCount)".utf8) }
        body.append(UInt8(ascii: "}"))
        return body
    }
}
