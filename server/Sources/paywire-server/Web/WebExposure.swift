import Crypto
import PaywireModel
import PaywireServing
import PaywireWeb
import PaywireWire
import ServerDomain

/// A web paywall's showing, recorded as an app's is (each a session of one record, `seq` 1): a `paywall_shown` record of the visitor's
/// profile, with `app.platform` = `web`, kept through the same store as `POST /v1/events`.
///
/// A showing counts only from a browser that drew the page: the page carries a beacon
/// (`PaywallPage.Beacon`) its script sends once drawn, naming the page (its nonce), the variation
/// and language it was drawn for, and a token only this visitor's cookie could have had the
/// server make (`token`). A client that only fetches pages (a crawler, a script, a flood of
/// 3,000 requests that were 3,000 new visitors) counts nothing.
enum WebExposure {
    /// What the record names as its SDK.
    static let sdkVersion = EventRecord.webPaywallSDKVersion

    /// The token of a page's beacon: bound to the visitor's credential (the cookie's secret
    /// half, which the store keeps only as a digest), the placement, the variation and language
    /// the page was drawn for, and the page.
    static func token(credential: String, placementId: String, variationId: String, locale: String, page: String) -> String {
        SecretToken.derived(credential, ["web-seen", placementId, variationId, locale, page].joined(separator: "\u{0}"))
    }

    /// The beacon a page drawn for `visitor` carries.
    static func beacon(placementId: String, variationId: String, locale: String, page: String, credential: String) -> PaywallPage.Beacon {
        let token = token(credential: credential, placementId: placementId, variationId: variationId, locale: locale, page: page)
        let fields = [("page", page), ("variation_id", variationId), ("locale", locale), ("token", token)]
        return PaywallPage.Beacon(url: "/web/\(URLComponent.escaped(placementId))/seen",
                                  body: fields.map { "\($0.0)=\(URLComponent.escaped($0.1))" }.joined(separator: "&"))
    }

    /// The exposure's event id for a page's beacon: one per page, so a beacon sent twice is one
    /// showing (the store keeps an event id once).
    static func eventId(beaconToken token: String) -> String {
        let hex = Hex.encode(SHA256.hash(data: Array("web-seen-event\u{0}\(token)".utf8)).prefix(16))
        let chars = Array(hex)
        return [chars[0..<8], chars[8..<12], chars[12..<16], chars[16..<20], chars[20..<32]].map { String($0) }.joined(separator: "-")
    }

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
