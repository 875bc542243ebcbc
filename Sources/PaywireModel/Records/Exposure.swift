import PaywireWire

/// One exposure (`paywall_shown`): a profile met a variation of a placement's A/B test. The
/// paywall a host showed (`log_show_paywall`), or a holdout the core decided on
/// (`get_presentation`), which shows nothing.
///
/// What results need is required: the placement, the test and the variation. The rest is
/// written when known and optional on both sides: a paywall from a vendor file may lack a
/// revision or an audience name, and a holdout names a paywall only when its author gave one.
/// Results count exposures without a revision apart (`exposed_unversioned`). `holdout` and
/// `forced` (a debug override chose the variation, so results leave it out) are written only
/// when true.
public struct Exposure: Equatable, Sendable {
    /// The record's name.
    public static let recordName = "paywall_shown"

    public let placementId: String
    public let audienceName: String?
    public let revision: Int?
    /// May be empty: a paywall whose placement runs no test.
    public let abTestName: String
    public let variationId: String
    public let paywallId: String?
    public let paywallName: String?
    public let placementAudienceVersionId: String?
    public let holdout: Bool
    public let forced: Bool

    public init(placementId: String, audienceName: String?, revision: Int?, abTestName: String, variationId: String,
                paywallId: String?, paywallName: String?, placementAudienceVersionId: String?, holdout: Bool, forced: Bool) {
        self.placementId = placementId
        self.audienceName = audienceName
        self.revision = revision
        self.abTestName = abTestName
        self.variationId = variationId
        self.paywallId = paywallId
        self.paywallName = paywallName
        self.placementAudienceVersionId = placementAudienceVersionId
        self.holdout = holdout
        self.forced = forced
    }

    /// The paywall a host showed, as its copy names it.
    package init(_ paywall: PaywallReference) {
        self.init(placementId: paywall.placementId, audienceName: paywall.audienceName, revision: paywall.revision,
                  abTestName: paywall.abTestName, variationId: paywall.variationId, paywallId: paywall.paywallId,
                  paywallName: paywall.paywallName.isEmpty ? nil : paywall.paywallName,
                  placementAudienceVersionId: paywall.placementAudienceVersionId,
                  holdout: false, forced: paywall.forced)
    }

    /// A holdout variation chosen for the profile (it names a paywall only if its author did).
    package init(holdout selection: Selection<Variation>) {
        self.init(placementId: selection.placement.developerId, audienceName: selection.audience.name,
                  revision: selection.audience.revision, abTestName: selection.audience.abTestName,
                  variationId: selection.variation.variationId,
                  paywallId: selection.variation.paywallId.isEmpty ? nil : selection.variation.paywallId,
                  paywallName: selection.variation.paywallName.isEmpty ? nil : selection.variation.paywallName,
                  placementAudienceVersionId: selection.audience.placementAudienceVersionId, holdout: true, forced: selection.forced)
    }

    /// Reads the params of a `paywall_shown` record.
    init(_ params: Fields) throws(WireError) {
        try RecordRules.refuseNulls(params, ["audience_name", "revision", "paywall_id", "paywall_name", "placement_audience_version_id"])
        self.init(placementId: try params.string("placement_id"), audienceName: try params.optionalString("audience_name"),
                  revision: try params.optionalInt("revision"), abTestName: try params.string("ab_test_name"),
                  variationId: try params.string("variation_id"), paywallId: try params.optionalString("paywall_id"),
                  paywallName: try params.optionalString("paywall_name"),
                  placementAudienceVersionId: try params.optionalString("placement_audience_version_id"),
                  holdout: try params.optionalBool("holdout") ?? false, forced: try params.optionalBool("forced") ?? false)
        try validate()
    }

    /// The rules of its members, by their paths in the record's params.
    public func validate() throws(WireError) {
        try RecordRules.check(placementId, "params.placement_id")
        try RecordRules.check(abTestName, "params.ab_test_name", allowEmpty: true)
        try RecordRules.check(variationId, "params.variation_id")
        if let audienceName { try RecordRules.check(audienceName, "params.audience_name", allowEmpty: true) }
        if let paywallId { try RecordRules.check(paywallId, "params.paywall_id", allowEmpty: true) }
        if let paywallName { try RecordRules.check(paywallName, "params.paywall_name", allowEmpty: true) }
        if let placementAudienceVersionId {
            try RecordRules.check(placementAudienceVersionId, "params.placement_audience_version_id", allowEmpty: true)
        }
        if let revision { try RecordRules.checkCount(WideInt(revision), "params.revision") }
    }

    /// The record's params; members unknown are left out, not sent as null.
    public func write(to writer: inout JSONWriter) {
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
