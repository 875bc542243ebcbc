import PaywireModel
import PaywireWire

/// `get_presentation`: whether to present a paywall placement now, and what. The placement is
/// served as `get_paywall` serves it (backend, cache, bundle; the profile's audience and
/// variation); then its rules are judged (`PresentationRules.judge`): an excluded access level,
/// no audience, the cap, a holdout. A holdout's exposure is recorded here, before the call
/// returns, since a holdout shows nothing for a host to report.
final class Presenter {
    private let profiles: ProfileStore
    private let presentations: PresentationLog
    private let exposures: ExposureRecorder

    init(profiles: ProfileStore, presentations: PresentationLog, exposures: ExposureRecorder) {
        self.profiles = profiles
        self.presentations = presentations
        self.exposures = exposures
    }

    /// The answer (`#/$defs/results/get_presentation`) for what served the placement.
    func respond(_ answer: PlacementAnswer) -> CallResponse {
        do throws(WireError) {
            switch answer.served {
            case .failure(let error):
                return .failure(error)
            case .success(.onboarding):
                return .failure(WireError(.internal, "a paywall placement served an onboarding"))
            case .success(.paywall(let served)):
                let judgement = try judge(served.reference.placementId, served.rules,
                                          .variation(holdout: false, forced: served.reference.forced))
                return Presenter.response(judgement, paywall: judgement.decision == .present ? served : nil,
                                          variation: (served.reference.variationId, served.reference.abTestName, served.reference.audienceName))
            case .success(.skipped(let skipped)):
                switch skipped.why {
                case .noAudienceMatch:
                    return Presenter.response(try judge(skipped.placementId, skipped.rules, .noAudienceMatch))
                case .holdout(let exposure):
                    let judgement = try judge(skipped.placementId, skipped.rules, .variation(holdout: true, forced: exposure.forced))
                    guard judgement.decision == .holdout else { return Presenter.response(judgement) }
                    let eventId = try exposures.paywallShown(exposure)
                    return Presenter.response(judgement, variation: (exposure.variationId, exposure.abTestName, exposure.audienceName),
                                              exposure: .some(eventId))
                }
            }
        } catch {
            return .failure(error)
        }
    }

    private func judge(_ placementId: String, _ rules: PresentationRules, _ choice: PresentationChoice) throws(WireError) -> PresentationJudgement {
        let now = profiles.accessNow()
        let times = rules.cap == nil ? [] : try presentations.times(of: placementId, profileId: profiles.profileId)
        return rules.judge(choice, activeAccessLevels: profiles.current.activeAccessLevels(now: now), presentedAt: times, now: now)
    }

    /// `{decision, reason, paywall?, variation_id?, ab_test_name?, audience_name?, forced?,
    /// access_level_id?, cap?, event_id? | analytics_disabled?}`; the variation is named only
    /// for present and holdout, the exposure only for a holdout.
    private static func response(_ judgement: PresentationJudgement, paywall: ServedPaywall? = nil,
                                 variation: (id: String, abTestName: String, audienceName: String?)? = nil,
                                 exposure recorded: String?? = nil) -> CallResponse {
        let named = judgement.decision == .present || judgement.decision == .holdout ? variation : nil
        return .success { writer in
            writer.object { writer in
                writer.member("decision", judgement.decision.rawValue)
                writer.member("reason", judgement.reason)
                if let paywall {
                    writer.key("paywall")
                    writer.raw(paywall.paywall)
                }
                if let named {
                    writer.member("variation_id", named.id)
                    writer.member("ab_test_name", named.abTestName)
                    if let audience = named.audienceName { writer.member("audience_name", audience) }
                }
                if judgement.reason == "debug_override" { writer.member("forced", true) }
                if let level = judgement.accessLevelId { writer.member("access_level_id", level) }
                if let state = judgement.capState {
                    writer.key("cap")
                    writer.object { writer in
                        writer.member("count", state.cap.count)
                        writer.member("per_seconds", state.cap.perSeconds)
                        writer.member("presented", state.presented)
                        if let nextAt = state.nextAt { writer.member("next_at", ISODate.format(milliseconds: nextAt)) }
                    }
                }
                // A holdout's exposure: its record's id, or that analytics are disabled.
                switch recorded {
                case .some(.some(let eventId)): writer.member("event_id", eventId)
                case .some(.none): writer.member("analytics_disabled", true)
                case .none: break
                }
            }
        }
    }
}
