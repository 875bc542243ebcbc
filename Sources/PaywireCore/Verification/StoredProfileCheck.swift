import PaywireModel
import PaywireWire

/// The profile read back from `storage_dir`, judged against the signed answer kept beside it
/// (`response_verification`): an edited `profile.json` grants nothing its signature does not
/// cover. Pure: the signature check is handed in.
///
/// - A backend grant (or verified purchase) the kept answer carries, member for member, is
///   `verified`; any other is `failed` in informational mode and dropped in enforced mode. A kept
///   answer whose signature does not hold, or that is about another profile (another device's
///   signed answer copied in), covers nothing.
/// - A grant on the device's word stands only while its transaction waits for the backend in the
///   outbox (`deviceGrants`, once the outbox is read): otherwise nothing could ever take it back.
/// - In enforced mode the backend's grants count from the kept answer's signed time at the
///   latest (a verified 304 for it dates it later): an edited `backend_answered_at` does not
///   stretch offline access.
enum StoredProfileCheck {
    /// What the check found.
    struct Outcome {
        var profile: Profile
        /// The ids of what the signature does not cover (`access_levels.premium`, ...).
        var uncovered: [String] = []
        /// The newest verified signing time kept, if any.
        var signedAt: WideInt?
    }

    /// `profile` as read back, judged in `mode`; `holds` checks a kept answer's signature.
    static func check(_ profile: Profile, mode: VerificationConfig.Mode, holds: (SignedAnswer) -> Bool) -> Outcome {
        var outcome = Outcome(profile: profile)
        guard mode != .disabled else {
            outcome.profile.verification = .not_requested
            return outcome
        }
        var covering: RemoteProfile.Snapshot?
        if let answer = profile.signedAnswer, holds(answer), answer.isAbout(profile.profileId), let object = answer.profile,
           let snapshot = try? RemoteProfile.parse(profile: object) {
            covering = snapshot
            outcome.signedAt = answer.signedAt
            if let confirmation = profile.signedConfirmation, confirmation.status == 304, !answer.etag.isEmpty,
               ResponseSignature.signedETag(confirmation.etag) == ResponseSignature.signedETag(answer.etag), holds(confirmation) {
                outcome.signedAt = max(answer.signedAt, confirmation.signedAt)
            }
        }
        let snapshot = covering ?? RemoteProfile.Snapshot()
        let enforced = mode == .enforced
        outcome.profile.accessLevels = judge(profile.accessLevels, against: snapshot.accessLevels, enforced: enforced,
                                             path: "access_levels", uncovered: &outcome.uncovered)
        outcome.profile.subscriptions = judge(profile.subscriptions, against: snapshot.subscriptions, enforced: enforced,
                                              path: "subscriptions", uncovered: &outcome.uncovered)
        outcome.profile.nonSubscriptions = judge(profile.nonSubscriptions, against: snapshot.nonSubscriptions, enforced: enforced,
                                                 uncovered: &outcome.uncovered)
        let tampered = profile.signedAnswer != nil && covering == nil
        outcome.profile.verification = !outcome.uncovered.isEmpty || tampered ? .failed : (covering != nil ? .verified : .not_requested)
        if enforced, let signedAt = outcome.signedAt { outcome.profile.backendAnsweredAt = min(profile.backendAnsweredAt, signedAt) }
        if covering == nil {
            outcome.profile.signedAnswer = nil
            outcome.profile.signedConfirmation = nil
        }
        return outcome
    }

    /// `profile`'s grants on the device's word whose transaction no longer waits for the backend
    /// (`pending`): `failed` in informational mode, dropped in enforced mode. Offline grants are
    /// never kept, so none are read back.
    static func deviceGrants(_ profile: Profile, pending: Set<String>, mode: VerificationConfig.Mode) -> Outcome {
        var outcome = Outcome(profile: profile)
        guard mode != .disabled else { return outcome }
        func settle(_ list: [(id: String, grant: Profile.Grant)], _ path: String) -> [(id: String, grant: Profile.Grant)] {
            list.compactMap { item in
                guard item.grant.source == .device, !(item.grant.transactionId.map(pending.contains) ?? false) else { return item }
                outcome.uncovered.append("\(path).\(item.id)")
                guard mode == .informational else { return nil }
                var grant = item.grant
                grant.verification = .failed
                return (item.id, grant)
            }
        }
        outcome.profile.accessLevels = settle(profile.accessLevels, "access_levels")
        outcome.profile.subscriptions = settle(profile.subscriptions, "subscriptions")
        if !outcome.uncovered.isEmpty { outcome.profile.verification = .failed }
        return outcome
    }

    private static func judge(_ grants: [(id: String, grant: Profile.Grant)], against signed: [(id: String, grant: Profile.Grant)],
                              enforced: Bool, path: String, uncovered: inout [String]) -> [(id: String, grant: Profile.Grant)] {
        grants.compactMap { item in
            guard item.grant.source == .backend else { return item }
            var grant = item.grant
            if signed.contains(where: { $0.id == item.id && same($0.grant, grant) }) {
                grant.verification = .verified
                return (item.id, grant)
            }
            uncovered.append("\(path).\(item.id)")
            guard !enforced else { return nil }
            grant.verification = .failed
            return (item.id, grant)
        }
    }

    private static func judge(_ purchases: [(id: String, purchases: [Profile.NonSubscription])],
                              against signed: [(id: String, purchases: [Profile.NonSubscription])], enforced: Bool,
                              uncovered: inout [String]) -> [(id: String, purchases: [Profile.NonSubscription])] {
        purchases.compactMap { item in
            let kept = item.purchases.compactMap { purchase -> Profile.NonSubscription? in
                guard purchase.verified else { return purchase }
                if signed.contains(where: { $0.id == item.id && $0.purchases.contains(purchase) }) { return purchase }
                uncovered.append("non_subscriptions.\(item.id).\(purchase.purchaseId)")
                guard !enforced else { return nil }
                var unconfirmed = purchase
                unconfirmed.verified = false
                return unconfirmed
            }
            return kept.isEmpty ? nil : (item.id, kept)
        }
    }

    /// Whether a kept grant says what the signed one does: every member but the device's marks.
    private static func same(_ signed: Profile.Grant, _ kept: Profile.Grant) -> Bool {
        var kept = kept
        kept.verification = signed.verification
        kept.verified = signed.verified
        kept.source = signed.source
        return kept == signed
    }
}
