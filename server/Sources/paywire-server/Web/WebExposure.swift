import PaywireModel
import PaywireWire

/// A web paywall's showing, recorded as an app's is: a `paywall_shown` record of the visitor's
/// profile, with `app.platform` = `web`, kept through the same store as `POST /v1/events`.
enum WebExposure {
    /// What the record names as its SDK.
    static let sdkVersion = "paywire-server-web/1"

    /// The record's bytes and its stored form; nil if the model refuses it (it never should:
    /// every member comes from a checked bundle or from the server itself).
    static func record(_ exposure: Exposure, profileId: String, eventId: String, at: Int) -> EventRecord? {
        let header = AnalyticsRecord.Header(eventId: eventId, profileId: profileId, customerUserId: nil, createdAt: at, seq: 0,
                                            name: Exposure.recordName)
        let source = AnalyticsRecord.Source(installId: profileId, sessionId: eventId, platform: WebPaywall.platform, appVersion: nil,
                                            wrapper: nil)
        let bytes = AnalyticsRecord.encode(header, source: source, sdkVersion: sdkVersion) { exposure.write(to: &$0) }
        guard let value = try? JSONValue(parsing: bytes), let record = try? AnalyticsRecord.decode(value) else { return nil }
        return EventRecord(record, text: String(decoding: bytes, as: UTF8.self))
    }
}
