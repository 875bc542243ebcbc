import PaywireModel
import PaywireWire

/// Serves paywalls and onboardings from the fallback bundle or from a fetched copy: chooses for
/// the profile, encodes once, and hands out the same bytes while the choice stands.
final class PlacementServer {
    private(set) var bundle: FallbackBundle?
    /// How the bundle's signature was judged (`response_verification`); nil when nothing was asked.
    private var bundleVerification: Verification?
    private let served: ServedPaywalls
    private let chooser: Chooser
    private let clock: Clock
    /// Learns what the served placements' products grant (offline access); nil without a backend.
    private let productAccess: ProductAccessMap?

    init(bundle: FallbackBundle?, verification: Verification? = nil, served: ServedPaywalls, clock: Clock, productAccess: ProductAccessMap? = nil, chooser: Chooser) {
        self.bundle = bundle
        bundleVerification = verification
        self.productAccess = productAccess
        self.served = served
        self.chooser = chooser
        self.clock = clock
    }

    /// Replaces the fallback bundle; choices made from the old one are forgotten.
    func install(_ loaded: FallbackBundle, verification: Verification?) -> CallResponse {
        bundle = loaded
        bundleVerification = verification
        served.removeAll()
        return .success { writer in
            writer.object { writer in
                writer.member("format", loaded.format.rawValue)
                writer.member("format_version", loaded.formatVersion)
                writer.member("response_created_at", loaded.responseCreatedAt)
                writer.member("placement_count", loaded.paywalls.ids.count)
                writer.member("onboarding_count", loaded.onboardings.ids.count)
            }
        }
    }

    /// The bundle's version of a placement (its `response_created_at`) when the bundle has it.
    func bundleVersion(of key: PlacementKey) -> WideInt? {
        guard let bundle else { return nil }
        let present: Bool
        switch key.kind {
        case .paywall: present = (try? bundle.paywalls.placement(key.id)) != nil
        case .onboarding: present = (try? bundle.onboardings.placement(key.id)) != nil
        }
        return present ? bundle.responseCreatedAt : nil
    }

    /// What the bundle's placement serves this profile in `locale`: its paywall, encoded once,
    /// or none (a holdout, no audience).
    func servePaywall(_ placementId: String, locale requestLocale: String?, choice requested: PaywallChoice = .byAudience) throws(WireError) -> ServedPlacement {
        let choice = chooser.paywallChoice(in: placementId, requested)
        let key = PaywallCacheKey(placementId: placementId, requestLocale: requestLocale, choice: choice)
        if let hit = served.current(key, now: clock.nowMilliseconds) { return .paywall(hit) }
        let placement: Placement<Variation> = try placementFromBundle(placementId, in: { $0.paywalls })
        let outcome = try choose(in: placement, locale: requestLocale, choice: choice, responseCreatedAt: bundle?.responseCreatedAt ?? 0,
                                 verification: bundleVerification)
        if case .paywall(let paywall) = outcome { served.keep(paywall, for: key) }
        return outcome
    }

    /// The profile's variation of a paywall placement, served: a paywall encoded once, or the
    /// holdout or missing audience that shows none.
    private func choose(in placement: Placement<Variation>, locale requestLocale: String?, choice: PaywallChoice,
                        responseCreatedAt: WideInt, verification: Verification?) throws(WireError) -> ServedPlacement {
        productAccess?.learn(placement)
        guard let selection = try chooser.select(placement, locale: requestLocale, choice: choice, responseCreatedAt: responseCreatedAt) else {
            return .skipped(SkippedPaywall(placementId: placement.developerId, rules: placement.presentation, why: .noAudienceMatch))
        }
        if selection.variation.holdout {
            return .skipped(SkippedPaywall(placementId: placement.developerId, rules: placement.presentation,
                                           why: .holdout(Exposure(holdout: selection))))
        }
        return .paywall(encode(Paywall(selection: selection, verification: verification), rules: placement.presentation))
    }

    /// The paywall `paywallId` as the bundle's first placement showing it serves it, rules skipped.
    func servePaywall(byId paywallId: String, locale requestLocale: String?) throws(WireError) -> ServedPaywall {
        guard let bundle else {
            throw WireError(.notFound, "no source: set a fallback bundle (config.fallback or set_fallback)",
                            details: JSONObject([("paywall_id", .string(paywallId))]))
        }
        // A placement that does not load is skipped here: it is reported when it is asked for.
        for id in bundle.paywalls.ids {
            guard let placement = (try? bundle.paywalls.placement(id)) ?? nil,
                  placement.audiences.contains(where: { $0.variations.contains { $0.servedPaywallId == paywallId } }) else { continue }
            // A choice by paywall id names a variation that shows one: never a holdout, never no audience.
            guard case .paywall(let served) = try servePaywall(id, locale: requestLocale, choice: .paywall(paywallId)) else {
                throw WireError(.internal, "paywall '\(paywallId)' was chosen by id but not served")
            }
            return served
        }
        throw WireError(.notFound, "the bundle has no paywall '\(paywallId)'", details: JSONObject([("paywall_id", .string(paywallId))]))
    }

    /// The onboarding the bundle's placement serves this profile.
    func serveOnboarding(_ placementId: String, locale requestLocale: String?) throws(WireError) -> Onboarding {
        let placement: Placement<OnboardingVariation> = try placementFromBundle(placementId, in: { $0.onboardings })
        return try chooseOnboarding(in: placement, locale: requestLocale, responseCreatedAt: bundle?.responseCreatedAt ?? 0,
                                    verification: bundleVerification)
    }

    /// The profile's onboarding; an error when no audience matches (an onboarding has no
    /// `get_presentation`).
    private func chooseOnboarding(in placement: Placement<OnboardingVariation>, locale requestLocale: String?,
                                  responseCreatedAt: WideInt, verification: Verification?) throws(WireError) -> Onboarding {
        guard let selection = try chooser.select(placement, locale: requestLocale, choice: .byAudience, responseCreatedAt: responseCreatedAt) else {
            throw WireError(.invalidFallback, "no audience of placement '\(placement.developerId)' matches this profile",
                            details: JSONObject([("placement_id", .string(placement.developerId)), ("reason", .string("no_audience_match"))]))
        }
        return Onboarding(selection: selection, verification: verification)
    }

    /// The bundle's paywall or onboarding for a placement.
    func serveFromBundle(_ key: PlacementKey, locale requestLocale: String?, choice: PaywallChoice) throws(WireError) -> ServedPlacement {
        switch key.kind {
        case .paywall: return try servePaywall(key.id, locale: requestLocale, choice: choice)
        case .onboarding: return .onboarding(try serveOnboarding(key.id, locale: requestLocale))
        }
    }

    /// A paywall or onboarding from a fetched placement; a paywall is encoded once per fetched copy.
    func serveFetched(_ fetched: RemoteSource.Fetched, locale requestLocale: String?, choice: PaywallChoice) throws(WireError) -> ServedPlacement {
        switch fetched.key.kind {
        case .onboarding:
            let placement: Placement<OnboardingVariation> = try PlacementServer.load(fetched)
            return .onboarding(try chooseOnboarding(in: placement, locale: requestLocale, responseCreatedAt: fetched.responseCreatedAt,
                                                    verification: fetched.verification))
        case .paywall:
            let choice = chooser.paywallChoice(in: fetched.placementId, choice)
            let key = PaywallCacheKey(placementId: fetched.placementId, requestLocale: requestLocale,
                                      choice: choice, remote: true)
            let copy = (fetched.fetchedAt, fetched.responseCreatedAt)
            if let hit = served.current(key, now: clock.nowMilliseconds, fetchedCopy: copy) { return .paywall(hit) }
            let placement: Placement<Variation> = try PlacementServer.load(fetched)
            let outcome = try choose(in: placement, locale: requestLocale, choice: choice, responseCreatedAt: fetched.responseCreatedAt,
                                     verification: fetched.verification)
            guard case .paywall(var paywall) = outcome else { return outcome }
            paywall.fetchedCopy = copy
            served.keep(paywall, for: key)
            return .paywall(paywall)
        }
    }

    private func encode(_ paywall: Paywall, rules: PresentationRules) -> ServedPaywall {
        var writer = JSONWriter(reservingCapacity: 1024)
        paywall.write(to: &writer)
        return ServedPaywall(paywall: writer.bytes, envelope: CallResponse.success(writer.bytes).envelope,
                             reference: PaywallReference(paywall), rules: rules, validUntil: chooser.validUntil())
    }

    /// A placement of the bundle's `section`, or `not_found` saying what is missing.
    private func placementFromBundle<V>(_ placementId: String, in section: (FallbackBundle) -> PlacementSection<V>) throws(WireError) -> Placement<V> {
        guard let bundle else {
            throw WireError(.notFound, "no source: set a fallback bundle (config.fallback or set_fallback)",
                            details: JSONObject([("placement_id", .string(placementId))]))
        }
        guard let placement = try section(bundle).placement(placementId) else {
            throw PlacementServer.noPlacement(placementId, among: section(bundle).ids)
        }
        return placement
    }

    /// `not_found` for a placement id the bundle lacks, naming the nearest id it has
    /// (`details.did_you_mean`) when one is a near miss: a typo in an id fails where it is made.
    static func noPlacement(_ placementId: String, among ids: some Sequence<String>) -> WireError {
        var details = JSONObject([("placement_id", .string(placementId))])
        guard let meant = NearestName.suggestion(for: placementId, among: ids) else {
            return WireError(.notFound, "the bundle has no placement '\(placementId)' of this kind", details: details)
        }
        details.set("did_you_mean", .string(meant))
        return WireError(.notFound, "the bundle has no placement '\(placementId)' of this kind: did you mean '\(meant)'?", details: details)
    }

    /// A fetched placement, parsed and checked by the rules the bundle's placements follow.
    private static func load<V>(_ fetched: RemoteSource.Fetched) throws(WireError) -> Placement<V> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(fetched.placement)
        } catch {
            throw WireError(.decodingFailed, "the cached placement '\(fetched.placementId)' does not parse")
        }
        do throws(WireError) {
            return try Placement<V>.load(id: fetched.placementId, section: fetched.key.kind.collection, from: value)
        } catch {
            throw WireError(.decodingFailed, "the backend's placement is invalid: \(error.message)", details: error.details)
        }
    }
}
