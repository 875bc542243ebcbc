import PaywireModel
import PaywireWire

/// One exposure (`paywall_shown`): a profile met a variation of a placement's A/B test. The
/// paywall a host showed (`log_show_paywall`), or a holdout the core decided on
/// (`get_presentation`), which shows nothing. `holdout` and `forced` (a debug override chose
/// the variation, so the backend leaves it out of results) are written only when true.
struct Exposure: Sendable {
    let placementId: String
    let audienceName: String?
    let revision: Int?
    let abTestName: String
    let variationId: String
    let paywallId: String?
    let paywallName: String?
    let placementAudienceVersionId: String?
    let holdout: Bool
    let forced: Bool

    /// The paywall a host showed, as its copy names it.
    init(_ paywall: PaywallReference) {
        placementId = paywall.placementId
        audienceName = paywall.audienceName
        revision = paywall.revision
        abTestName = paywall.abTestName
        variationId = paywall.variationId
        paywallId = paywall.paywallId
        paywallName = paywall.paywallName
        placementAudienceVersionId = paywall.placementAudienceVersionId
        holdout = false
        forced = paywall.forced
    }

    /// A holdout variation chosen for the profile (it names a paywall only if its author did).
    init(holdout selection: Selection<Variation>) {
        placementId = selection.placement.developerId
        audienceName = selection.audience.name
        revision = selection.audience.revision
        abTestName = selection.audience.abTestName
        variationId = selection.variation.variationId
        paywallId = selection.variation.paywallId.isEmpty ? nil : selection.variation.paywallId
        paywallName = selection.variation.paywallName.isEmpty ? nil : selection.variation.paywallName
        placementAudienceVersionId = selection.audience.placementAudienceVersionId
        holdout = true
        forced = selection.forced
    }

    /// The record's params; members unknown are left out, not sent as null.
    func write(to writer: inout JSONWriter) {
        writer.member("placement_id", placementId)
        if let audienceName { writer.member("audience_name", audienceName) }
        if let revision { writer.member("revision", revision) }
        writer.member("ab_test_name", abTestName)
        writer.member("variation_id", variationId)
        if let paywallId { writer.member("paywall_id", paywallId) }
        if let paywallName { writer.member("paywall_name", paywallName) }
        if let placementAudienceVersionId { writer.member("placement_audience_version_id", placementAudienceVersionId) }
        if holdout { writer.member("holdout", true) }
        if forced { writer.member("forced", true) }
    }
}

/// Where exposures are kept for the backend (the outbox).
protocol ExposureRecorder: AnyObject {
    /// Keeps the exposure durably before returning its record's id; nil when analytics are
    /// disabled (nothing recorded).
    func paywallShown(_ exposure: Exposure) throws(WireError) -> String?
}
