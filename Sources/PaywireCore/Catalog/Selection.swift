/// What a profile gets in a placement: the audience (the first whose rule matches, or the
/// default), its variation (by the bucketing rule, or the profile's cross-placement group), and
/// the remote config for the request's language. Shared by paywalls and onboardings.
struct Selection<V: WeightedVariation>: Sendable {
    let placement: Placement<V>
    let audience: Audience<V>
    let variation: V
    let remoteConfig: RemoteConfig?
    let responseCreatedAt: Int
    let requestLocale: String
    /// A cross-placement group this choice assigns the profile to (to be kept by the caller).
    let newCrossPlacementAssignment: (testId: String, group: String)?

    /// Chooses for a profile. `defaultAudienceOnly` skips the rules (the last audience serves).
    init(placement: Placement<V>, profileId: String, locale: String?, responseCreatedAt: Int, context: AudienceContext,
         defaultAudienceOnly: Bool = false, crossPlacementAssignments: [String: String] = [:]) throws(WireError) {
        let audience = defaultAudienceOnly
            ? placement.defaultAudience
            : placement.audiences.first { $0.rule?.matches(context) ?? true }
        guard let audience else {
            throw WireError(.invalidFallback, "placement '\(placement.developerId)' has no audiences")
        }
        var chosen: V?
        var assignment: (testId: String, group: String)?
        if let testId = audience.crossPlacementTestId, let group = crossPlacementAssignments[testId] {
            chosen = audience.variations.first { $0.crossPlacementGroup == group }
        }
        if chosen == nil {
            chosen = VariationChooser.choose(audience.variations, placementAudienceVersionId: audience.placementAudienceVersionId, profileId: profileId)
            if let testId = audience.crossPlacementTestId, crossPlacementAssignments[testId] == nil, let group = chosen?.crossPlacementGroup {
                assignment = (testId, group)
            }
        }
        guard let variation = chosen else {
            throw WireError(.invalidFallback, "placement '\(placement.developerId)' has no variations")
        }
        self.placement = placement
        self.audience = audience
        self.variation = variation
        self.remoteConfig = LocaleMatch.pick(variation.remoteConfigs, language: LocaleMatch.language(of: locale)) { $0.lang }
        self.responseCreatedAt = responseCreatedAt
        self.requestLocale = locale ?? LocaleMatch.defaultLanguage
        self.newCrossPlacementAssignment = assignment
    }

    /// `"placement": {...}`, the analytics context every served object carries.
    func writePlacement(to writer: inout JSONWriter) {
        writer.key("placement")
        writer.object { writer in
            writer.member("developer_id", placement.developerId)
            writer.member("audience_name", audience.name)
            writer.member("revision", audience.revision)
            writer.member("ab_test_name", audience.abTestName)
            writer.member("placement_audience_version_id", audience.placementAudienceVersionId)
        }
    }

    /// `"remote_config": {lang, data, data_map?}` or `null`; `data_map` is the parsed object
    /// when `data` is a JSON object.
    func writeRemoteConfig(to writer: inout JSONWriter) {
        writer.key("remote_config")
        if let remoteConfig {
            writer.object { writer in
                writer.member("lang", remoteConfig.lang)
                writer.member("data", remoteConfig.data)
                if case .object(let map)? = try? JSONParser.parse(remoteConfig.data) {
                    writer.member("data_map", .object(map))
                } else {
                    writer.member("data_map", .null)
                }
            }
        } else {
            writer.null()
        }
    }

    /// The closing members every served object carries.
    func writeVersionAndLocale(to writer: inout JSONWriter) {
        writer.member("response_created_at", responseCreatedAt)
        writer.member("request_locale", requestLocale)
    }
}
