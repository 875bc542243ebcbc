import PaywireModel

/// One analytics record of `POST /v1/events` as the store keeps it: the columns results read,
/// and the record's text as sent.
package struct EventRecord: Sendable {
    package let eventId: String
    package let profileId: String
    package let name: String
    /// For `paywall_shown`: what experiment results count.
    package let placementId: String?
    package let abTestName: String?
    package let variationId: String?
    /// For `paywall_shown`: the placement's revision, when the device knew it (a paywall from
    /// a vendor file may not): results count exposures without one apart.
    package let revision: Int?
    /// For `paywall_shown`: the record's created_at (a holdout's purchasers bought at or after
    /// their first exposure), and whether a debug override forced it (results leave it out).
    package let shownAt: Int?
    package let forced: Bool
    /// For `paywall_shown`: the server's web paywall recorded it (`WebExposure`); results count
    /// the web apart. An app that reports `platform: web` (a web build of an app) is an app.
    package let webPaywall: Bool
    /// The record as compact JSON (numbers and key order as sent).
    package let text: String

    /// The SDK name the server's web paywall writes in the records it makes (`WebExposure`):
    /// what marks a record as the web paywall's.
    package static let webPaywallSDKVersion = "paywire-server-web/1"

    package init(_ item: EventBatch.Item) { self.init(item.record, text: item.text) }

    /// A record the server made itself (a web paywall's exposure), with its text.
    package init(_ record: AnalyticsRecord, text: String) {
        eventId = record.header.eventId
        profileId = record.header.profileId
        name = record.header.name
        placementId = record.exposure?.placementId
        abTestName = record.exposure?.abTestName
        variationId = record.exposure?.variationId
        revision = record.exposure?.revision
        shownAt = record.exposure == nil ? nil : record.header.createdAt
        forced = record.exposure?.forced ?? false
        webPaywall = record.exposure != nil && record.sdkVersion == Self.webPaywallSDKVersion
        self.text = text
    }
}
