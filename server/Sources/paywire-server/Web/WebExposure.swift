import PaywireModel
import PaywireServing
import PaywireWire

/// A web paywall's showing, recorded as an app's is (each a session of one record, `seq` 1): a `paywall_shown` record of the visitor's
/// profile, with `app.platform` = `web`, kept through the same store as `POST /v1/events`.
enum WebExposure {
    /// What the record names as its SDK.
    static let sdkVersion = "paywire-server-web/1"

    /// The record in its stored form, read back by the model's own reader: what `POST /v1/events`
    /// would keep of the same record from a device. A refusal (it never should be: every member
    /// comes from a checked bundle or from the server itself) is thrown, naming the member.
    static func record(_ exposure: Exposure, profileId: String, eventId: String, at: Int) throws(WireError) -> EventRecord {
        let header = AnalyticsRecord.Header(eventId: eventId, profileId: profileId, customerUserId: nil, createdAt: at, seq: 1,
                                            name: Exposure.recordName)
        let source = AnalyticsRecord.Source(installId: profileId, sessionId: eventId, platform: WebPaywall.platform, appVersion: nil,
                                            wrapper: nil)
        let bytes = AnalyticsRecord.encode(header, source: source, sdkVersion: sdkVersion) { exposure.write(to: &$0) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw WireError.wrongParam("record", "the server wrote a record that is not JSON")
        }
        return EventRecord(try AnalyticsRecord.decode(value), text: String(decoding: bytes, as: UTF8.self))
    }
}
