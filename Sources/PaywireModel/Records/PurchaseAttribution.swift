import PaywireWire

/// What a purchase is attributed to: the paywall (placement, audience, A/B test, variation)
/// it was made on. The backend reads conversions per variation from it.
public struct PurchaseAttribution: Equatable, Sendable {
    public let placementId: String
    public let audienceName: String?
    /// May be empty: a placement that runs no test.
    public let abTestName: String
    public let variationId: String
    public let paywallId: String?
    public let paywallName: String

    public init(placementId: String, audienceName: String?, abTestName: String, variationId: String, paywallId: String?,
                paywallName: String) {
        self.placementId = placementId
        self.audienceName = audienceName
        self.abTestName = abTestName
        self.variationId = variationId
        self.paywallId = paywallId
        self.paywallName = paywallName
    }

    package init(_ paywall: PaywallReference) {
        self.init(placementId: paywall.placementId, audienceName: paywall.audienceName, abTestName: paywall.abTestName,
                  variationId: paywall.variationId, paywallId: paywall.paywallId, paywallName: paywall.paywallName)
    }

    /// The rules of its members, by their paths under `attribution.`.
    public func validate() throws(WireError) {
        try RecordRules.check(placementId, "attribution.placement_id")
        try RecordRules.check(abTestName, "attribution.ab_test_name", allowEmpty: true)
        try RecordRules.check(variationId, "attribution.variation_id")
        try RecordRules.check(paywallName, "attribution.paywall_name", allowEmpty: true)
        if let audienceName { try RecordRules.check(audienceName, "attribution.audience_name", allowEmpty: true) }
        if let paywallId { try RecordRules.check(paywallId, "attribution.paywall_id", allowEmpty: true) }
    }

    /// `{placement_id, audience_name?, ab_test_name, variation_id, paywall_id?, paywall_name}`.
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("placement_id", placementId)
            if let audienceName { writer.member("audience_name", audienceName) }
            writer.member("ab_test_name", abTestName)
            writer.member("variation_id", variationId)
            if let paywallId { writer.member("paywall_id", paywallId) }
            writer.member("paywall_name", paywallName)
        }
    }

    /// Reads and checks what `write` wrote.
    public init(_ object: JSONObject) throws(WireError) {
        let fields = Fields(object, path: "attribution")
        try RecordRules.refuseNulls(fields, ["audience_name", "paywall_id", "paywall_name"])
        self.init(placementId: try fields.string("placement_id"), audienceName: try fields.optionalString("audience_name"),
                  abTestName: try fields.optionalString("ab_test_name") ?? "", variationId: try fields.string("variation_id"),
                  paywallId: try fields.optionalString("paywall_id"), paywallName: try fields.optionalString("paywall_name") ?? "")
        try validate()
    }
}
