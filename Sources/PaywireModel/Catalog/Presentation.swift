import PaywireWire

/// How often, and to whom, a paywall placement may be presented: `cap {count, per_seconds}`
/// (at most `count` presentations in any `per_seconds`) and `exclude_if_access [ids]` (never
/// to a profile with one of these access levels active).
package struct PresentationRules: Equatable, Sendable {
    package struct Cap: Equatable, Sendable {
        package let count: Int
        package let perSeconds: Int

        package init(count: Int, perSeconds: Int) {
            self.count = count
            self.perSeconds = perSeconds
        }
    }

    /// The largest cap: presentations are kept this many per placement, this long.
    package static let maxCount = 1000
    package static let maxSeconds = 366 * 86_400

    package var cap: Cap?
    package var excludeIfAccess: [String] = []

    package init(cap: Cap? = nil, excludeIfAccess: [String] = []) {
        self.cap = cap
        self.excludeIfAccess = excludeIfAccess
    }

    /// A placement's `cap` and `exclude_if_access`, both optional.
    package static func load(_ fields: Fields) throws(WireError) -> PresentationRules {
        var rules = PresentationRules()
        if let cap = try fields.optionalObject("cap") {
            rules.cap = Cap(count: try cap.int("count", in: 1...maxCount), perSeconds: try cap.int("per_seconds", in: 1...maxSeconds))
        }
        if fields.optional("exclude_if_access") != nil {
            for (index, value) in try fields.array("exclude_if_access").enumerated() {
                guard case .string(let id) = value, !id.isEmpty else {
                    throw WireError.wrongParam("\(fields.fieldPath("exclude_if_access"))[\(index)]", "expected an access level id")
                }
                rules.excludeIfAccess.append(id)
            }
        }
        return rules
    }
}

/// The answer to "present the placement's paywall now?".
package enum PresentationDecision: String, WireEnum, Sendable {
    case present, holdout, no_audience_match, capped, has_access
}

/// What was chosen for the profile in the placement, before the rules are judged.
package enum PresentationChoice: Equatable, Sendable {
    /// No audience's rule matches the profile.
    case noAudienceMatch
    /// A variation: a holdout or one showing a paywall, chosen by bucketing or forced by a
    /// debug override.
    case variation(holdout: Bool, forced: Bool)
}

/// A decision and what it was made on.
package struct PresentationJudgement: Equatable, Sendable {
    /// Where the placement has a cap: how many presentations count now, and, when capped,
    /// when the next one may be (ms, access time).
    package struct CapState: Equatable, Sendable {
        package let cap: PresentationRules.Cap
        package let presented: Int
        package let nextAt: WideInt?
    }

    package let decision: PresentationDecision
    /// Machine-readable: `access_level_active`, `no_audience_matched`, `cap_reached`,
    /// `holdout_variation`, `variation_chosen`, or `debug_override` (a forced variation).
    package let reason: String
    /// The active access level that excluded the profile (`has_access`).
    package var accessLevelId: String?
    package var capState: CapState?
}

extension PresentationRules {
    /// Judges in order: an excluded access level (`has_access`), then no audience
    /// (`no_audience_match`), then the cap (`capped`), then the variation (`holdout` or
    /// `present`). `presentedAt` are the times the placement's paywall appeared to the profile;
    /// those in the last `per_seconds` count, and so does a time after `now` (a clock set back
    /// does not lift a cap).
    package func judge(_ choice: PresentationChoice, activeAccessLevels: Set<String>, presentedAt: [WideInt], now: WideInt) -> PresentationJudgement {
        var capState: PresentationJudgement.CapState?
        if let cap {
            let window = WideInt(cap.perSeconds) * Milliseconds.second
            let counted = presentedAt.filter { $0 > now.clampedSubtracting(window) }.sorted()
            let limit = max(cap.count, 1)
            let capped = counted.count >= limit
            capState = PresentationJudgement.CapState(cap: cap, presented: counted.count,
                                                      nextAt: capped ? counted[counted.count - limit].clampedAdding(window) : nil)
        }
        if let excluded = excludeIfAccess.first(where: { activeAccessLevels.contains($0) }) {
            return PresentationJudgement(decision: .has_access, reason: "access_level_active", accessLevelId: excluded, capState: capState)
        }
        switch choice {
        case .noAudienceMatch:
            return PresentationJudgement(decision: .no_audience_match, reason: "no_audience_matched", capState: capState)
        case .variation(let holdout, let forced):
            if let capState, capState.nextAt != nil {
                return PresentationJudgement(decision: .capped, reason: "cap_reached", capState: capState)
            }
            let reason = forced ? "debug_override" : (holdout ? "holdout_variation" : "variation_chosen")
            return PresentationJudgement(decision: holdout ? .holdout : .present, reason: reason, capState: capState)
        }
    }
}
