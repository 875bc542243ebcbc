import PaywireModel
import PaywireWire

/// Chooses in placements for the current profile: what audience rules know of the app and the
/// profile, the cross-placement groups the profile keeps, and the variations a tester forces.
final class Chooser {
    private let profiles: ProfileStore
    private let clock: Clock
    private let overrides: DebugOverrides
    private let platform: String?
    private let appVersion: String?
    private let installedAt: WideInt?

    init(profiles: ProfileStore, clock: Clock, overrides: DebugOverrides, platform: String?, appVersion: String?, installedAt: WideInt?) {
        self.profiles = profiles
        self.clock = clock
        self.overrides = overrides
        self.platform = platform
        self.appVersion = appVersion
        self.installedAt = installedAt
    }

    /// The choice a request for the paywall placement `placementId` makes (a debug override's
    /// forced variation, or what the request asked).
    func paywallChoice(in placementId: String, _ requested: PaywallChoice) -> PaywallChoice {
        overrides.choice(in: placementId, requested)
    }

    /// Chooses in `placement`, keeping any cross-placement group the choice assigns; nil when
    /// no audience's rule matches the profile.
    func select<V>(_ placement: Placement<V>, locale requestLocale: String?, choice: PaywallChoice,
                   responseCreatedAt: WideInt) throws(WireError) -> Selection<V>? {
        let profile = profiles.current
        guard let selection = try Selection(placement: placement, profileId: profile.profileId, locale: requestLocale,
                                            responseCreatedAt: responseCreatedAt,
                                            context: context(locale: requestLocale),
                                            choice: choice,
                                            crossPlacementAssignments: profile.crossPlacementAssignments) else { return nil }
        if let assignment = selection.newCrossPlacementAssignment {
            try profiles.assignCrossPlacement(testId: assignment.testId, group: assignment.group)
        }
        return selection
    }

    /// Until when a choice made now stays right: the next access-level expiry, and the next
    /// install-age day boundary.
    func validUntil() -> WideInt {
        let now = clock.nowMilliseconds()
        var until = WideInt.max
        let accessNow = profiles.accessNow()
        if let change = profiles.current.nextAccessChange(after: accessNow) { until = min(until, now.clampedAdding(change.clampedSubtracting(accessNow))) }
        if let installedAt, now >= installedAt {
            until = min(until, installedAt.clampedAdding((now.clampedSubtracting(installedAt) / Milliseconds.day + 1) * Milliseconds.day))
        }
        return until
    }

    /// What audience rules are evaluated against, for a request in `locale`.
    private func context(locale requestLocale: String?) -> AudienceContext {
        let now = clock.nowMilliseconds()
        let profile = profiles.current
        return AudienceContext(
            customAttributes: profile.customAttributes,
            language: LocaleMatch.language(of: requestLocale),
            platform: platform,
            appVersion: appVersion,
            activeAccessLevels: profile.activeAccessLevels(now: profiles.accessNow()),
            installAgeDays: installedAt.map { Int(clamping: max(0, now.clampedSubtracting($0) / Milliseconds.day)) })
    }
}
