/// What a profile gets in a placement: its variation (by the bucketing rule) and the remote
/// config for the request's language (by the locale rule). Shared by paywalls and onboardings.
struct Selection<V: WeightedVariation>: Sendable {
    let placement: Placement<V>
    let variation: V
    let remoteConfig: RemoteConfig?
    let responseCreatedAt: Int
    let requestLocale: String

    init(placement: Placement<V>, profileId: String, locale: String?, responseCreatedAt: Int) throws(WireError) {
        guard let variation = VariationChooser.choose(
            placement.variations, placementAudienceVersionId: placement.placementAudienceVersionId, profileId: profileId)
        else {
            throw WireError(.invalidFallback, "placement '\(placement.developerId)' has no variations")
        }
        self.placement = placement
        self.variation = variation
        self.remoteConfig = LocaleMatch.pick(variation.remoteConfigs, language: LocaleMatch.language(of: locale)) { $0.lang }
        self.responseCreatedAt = responseCreatedAt
        self.requestLocale = locale ?? LocaleMatch.defaultLanguage
    }

    /// `"placement": {...}`, the analytics context every served object carries.
    func writePlacement(to writer: inout JSONWriter) {
        writer.key("placement")
        writer.object { writer in
            writer.member("developer_id", placement.developerId)
            writer.member("audience_name", placement.audienceName)
            writer.member("revision", placement.revision)
            writer.member("ab_test_name", placement.abTestName)
            writer.member("placement_audience_version_id", placement.placementAudienceVersionId)
        }
    }

    /// `"remote_config": {lang, data}` or `null`.
    func writeRemoteConfig(to writer: inout JSONWriter) {
        writer.key("remote_config")
        if let remoteConfig {
            writer.object { writer in
                writer.member("lang", remoteConfig.lang)
                writer.member("data", remoteConfig.data)
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
