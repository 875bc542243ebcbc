import PaywireWire

/// How a paywall is chosen in its placement.
package enum PaywallChoice: Hashable, Sendable {
    /// The first audience whose rules match, and its variation by bucketing.
    case byAudience
    /// Rules skipped: the default (last) audience, and its variation by bucketing.
    case defaultAudience
    /// The variation that shows this paywall (`get_paywall {paywall_id}`): rules and bucketing skipped.
    case paywall(String)
    /// The variation a debug override forces (`set_debug_overrides`): rules and bucketing skipped.
    case forced(variationId: String)
}

/// What a profile gets in a placement: the audience (the first whose rule matches, or the
/// default), its variation (by the bucketing rule, or the profile's cross-placement group), and
/// the remote config for the request's language. Shared by paywalls and onboardings.
package struct Selection<V: WeightedVariation>: Sendable {
    package let placement: Placement<V>
    package let audience: Audience<V>
    package let variation: V
    package let remoteConfig: RemoteConfig?
    package let responseCreatedAt: WideInt
    package let requestLocale: String
    /// A cross-placement group this choice assigns the profile to (to be kept by the caller).
    package let newCrossPlacementAssignment: (testId: String, group: String)?
    /// The variation was forced by a debug override, not chosen for the profile.
    package let forced: Bool

    /// Chooses for a profile, as `choice` says: by the audience rules, in the default audience
    /// (rules skipped), or the variation showing one paywall or forced (rules and bucketing
    /// skipped). Nil when no audience's rule matches the profile.
    package init?(placement: Placement<V>, profileId: String, locale: String?, responseCreatedAt: WideInt, context: AudienceContext,
         choice: PaywallChoice = .byAudience, crossPlacementAssignments: [String: String] = [:]) throws(WireError) {
        let (audience, variation, assignment): (Audience<V>, V, (testId: String, group: String)?)
        switch choice {
        case .paywall(let paywallId):
            (audience, variation) = try Selection.showing(paywallId, in: placement)
            assignment = nil
        case .forced(let variationId):
            (audience, variation) = try Selection.forcing(variationId, in: placement)
            assignment = nil
        case .byAudience, .defaultAudience:
            let matching = choice == .defaultAudience ? placement.defaultAudience : placement.audiences.first { $0.rule?.matches(context) ?? true }
            guard let matching else { return nil }
            (variation, assignment) = try Selection.bucket(in: matching, of: placement, profileId: profileId,
                                                            crossPlacementAssignments: crossPlacementAssignments)
            audience = matching
        }
        self.placement = placement
        self.audience = audience
        self.variation = variation
        self.remoteConfig = LocaleMatch.pick(variation.remoteConfigs, locale: locale, placementDefault: placement.defaultLocale) { $0.lang }
        self.responseCreatedAt = responseCreatedAt
        self.requestLocale = locale ?? LocaleMatch.defaultLanguage
        self.newCrossPlacementAssignment = assignment
        if case .forced = choice { forced = true } else { forced = false }
    }

    /// The profile's variation of an audience: its cross-placement group's, else by bucketing
    /// (and the group that assigns, when the audience runs a cross-placement test).
    private static func bucket(in audience: Audience<V>, of placement: Placement<V>, profileId: String,
                               crossPlacementAssignments: [String: String]) throws(WireError) -> (V, (testId: String, group: String)?) {
        if let testId = audience.crossPlacementTestId, let group = crossPlacementAssignments[testId],
           let kept = audience.variations.first(where: { $0.crossPlacementGroup == group }) {
            return (kept, nil)
        }
        guard let chosen = VariationChooser.choose(audience.variations, placementAudienceVersionId: audience.placementAudienceVersionId,
                                                   profileId: profileId) else {
            throw WireError(.invalidFallback, "placement '\(placement.developerId)' has no variations")
        }
        if let testId = audience.crossPlacementTestId, crossPlacementAssignments[testId] == nil, let group = chosen.crossPlacementGroup {
            return (chosen, (testId, group))
        }
        return (chosen, nil)
    }

    /// The variation that shows `paywallId`, in whichever audience has it.
    private static func showing(_ paywallId: String, in placement: Placement<V>) throws(WireError) -> (Audience<V>, V) {
        for audience in placement.audiences {
            if let variation = audience.variations.first(where: { $0.servedPaywallId == paywallId }) { return (audience, variation) }
        }
        throw WireError(.notFound, "placement '\(placement.developerId)' has no paywall '\(paywallId)'",
                        details: JSONObject([("placement_id", .string(placement.developerId)), ("paywall_id", .string(paywallId))]))
    }

    /// The variation a debug override names, in whichever audience has it.
    private static func forcing(_ variationId: String, in placement: Placement<V>) throws(WireError) -> (Audience<V>, V) {
        for audience in placement.audiences {
            if let variation = audience.variations.first(where: { $0.variationId == variationId }) { return (audience, variation) }
        }
        throw WireError(.notFound, "placement '\(placement.developerId)' has no variation '\(variationId)' (set by set_debug_overrides)",
                        details: JSONObject([("placement_id", .string(placement.developerId)), ("variation_id", .string(variationId)),
                                             ("reason", .string("debug_override"))]))
    }

    /// `"placement": {...}`, the analytics context every served object carries.
    package func writePlacement(to writer: inout JSONWriter) {
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
    package func writeRemoteConfig(to writer: inout JSONWriter) {
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

    /// The closing members every served object carries: `locale` is the localization that
    /// answered `request_locale` (null when none did).
    package func writeVersionAndLocale(to writer: inout JSONWriter) {
        writer.member("response_created_at", responseCreatedAt)
        writer.member("request_locale", requestLocale)
        writer.key("locale")
        if let remoteConfig { writer.string(remoteConfig.lang) } else { writer.null() }
    }
}
