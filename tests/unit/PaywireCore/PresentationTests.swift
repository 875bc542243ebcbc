import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// Whether to present: the rules of a placement (PresentationRules.judge), holdout variations,
/// a last audience with a rule, and debug overrides.
@Suite struct PresentationTests {
    private let day = 86_400_000
    private let now = 1_700_000_000_000

    private func rules(cap: (Int, Int)? = nil, exclude: [String] = []) -> PresentationRules {
        PresentationRules(cap: cap.map { PresentationRules.Cap(count: $0.0, perSeconds: $0.1) }, excludeIfAccess: exclude)
    }

    private let shown = PresentationChoice.variation(holdout: false, forced: false)

    @Test func aVariationShowingAPaywallIsPresented() {
        let judgement = rules().judge(shown, activeAccessLevels: [], presentedAt: [], now: now)
        #expect(judgement == PresentationJudgement(decision: .present, reason: "variation_chosen"))
    }

    @Test func aHoldoutVariationIsAHoldoutAndAForcedOneSaysSo() {
        #expect(rules().judge(.variation(holdout: true, forced: false), activeAccessLevels: [], presentedAt: [], now: now).decision == .holdout)
        let forced = rules().judge(.variation(holdout: true, forced: true), activeAccessLevels: [], presentedAt: [], now: now)
        #expect(forced == PresentationJudgement(decision: .holdout, reason: "debug_override"))
    }

    @Test func anExcludedAccessLevelComesBeforeEverythingElse() {
        let rules = rules(cap: (1, 86_400), exclude: ["gold", "premium"])
        let judgement = rules.judge(.noAudienceMatch, activeAccessLevels: ["premium", "gold"], presentedAt: [now - 1000], now: now)
        #expect(judgement.decision == .has_access)
        #expect(judgement.reason == "access_level_active")
        #expect(judgement.accessLevelId == "gold")
        #expect(rules.judge(shown, activeAccessLevels: ["silver"], presentedAt: [], now: now).decision == .present)
    }

    @Test func noAudienceComesBeforeTheCap() {
        let judgement = rules(cap: (1, 60)).judge(.noAudienceMatch, activeAccessLevels: [], presentedAt: [now], now: now)
        #expect(judgement.decision == .no_audience_match)
        #expect(judgement.reason == "no_audience_matched")
    }

    @Test func theCapCountsPresentationsInItsWindowAndSaysWhenTheNextMayBe() {
        let rules = rules(cap: (2, 86_400))
        let times = [now - 3 * day, now - 20 * 3_600_000, now - 1_000]
        let capped = rules.judge(shown, activeAccessLevels: [], presentedAt: times, now: now)
        #expect(capped.decision == .capped)
        #expect(capped.reason == "cap_reached")
        #expect(capped.capState == PresentationJudgement.CapState(cap: rules.cap!, presented: 2, nextAt: now - 20 * 3_600_000 + day))
        let later = rules.judge(shown, activeAccessLevels: [], presentedAt: times, now: now + 4 * 3_600_000 + 1)
        #expect(later.decision == .present)
        #expect(later.capState?.presented == 1)
        #expect(later.capState?.nextAt == nil)
    }

    @Test func aPresentationDatedAfterNowStillCounts() {
        let judgement = rules(cap: (1, 60)).judge(shown, activeAccessLevels: [], presentedAt: [now + day], now: now)
        #expect(judgement.decision == .capped)
    }

    @Test func aHoldoutIsCappedLikeAnyPresentation() {
        let judgement = rules(cap: (1, 60)).judge(.variation(holdout: true, forced: false), activeAccessLevels: [], presentedAt: [now], now: now)
        #expect(judgement.decision == .capped)
    }

    // MARK: - Placements

    private func placement(_ json: String) throws(WireError) -> Placement<Variation> {
        guard let value = try? JSONParser.parse(json) else { throw WireError(.internal, "the test's JSON does not parse") }
        return try Placement<Variation>.load(id: "p", section: "placements", from: value)
    }

    @Test func aHoldoutNeedsNoPaywallAndShowsNone() throws {
        let placement = try placement(#"{"placement_audience_version_id":"v1","cap":{"count":3,"per_seconds":3600},"#
            + #""exclude_if_access":["premium"],"variations":[{"variation_id":"a","paywall_id":"pw","weight":90,"products":["m"]},"#
            + #"{"variation_id":"h","weight":10,"holdout":true}]}"#)
        let holdout = try #require(placement.audiences.first?.variations.last)
        #expect(holdout.holdout)
        #expect(holdout.servedPaywallId == nil)
        #expect(placement.presentation == rules(cap: (3, 3600), exclude: ["premium"]))
        #expect(throws: WireError.self) {
            try self.placement(#"{"placement_audience_version_id":"v1","variations":[{"variation_id":"h","weight":100}]}"#)
        }
    }

    @Test(arguments: [
        (#""cap":{"count":0,"per_seconds":60}"#, "placements.p.cap.count"),
        (#""cap":{"count":1,"per_seconds":99999999}"#, "placements.p.cap.per_seconds"),
        (#""exclude_if_access":["premium",""]"#, "placements.p.exclude_if_access[1]"),
    ])
    func badRulesAreRefusedNamingTheirPath(_ member: String, _ field: String) {
        do throws(WireError) {
            _ = try placement(#"{"placement_audience_version_id":"v1","#
                + #""variations":[{"variation_id":"a","paywall_id":"pw","weight":100,"products":[]}],"# + member + "}")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidFallback)
            #expect(error.details["field"] == .string(field))
        }
    }

    private let context = AudienceContext(customAttributes: JSONObject(), language: "en", platform: "android", activeAccessLevels: [])

    @Test func aLastAudienceWithARuleLeavesOthersInNoAudience() throws {
        let placement = try placement(#"{"audiences":[{"placement_audience_version_id":"ios","rule":{"attribute":"platform","op":"eq","value":"ios"},"#
            + #""variations":[{"variation_id":"a","paywall_id":"pw","weight":100,"products":[]}]}]}"#)
        #expect(try Selection(placement: placement, profileId: "x", locale: nil, responseCreatedAt: 0, context: context) == nil)
        let rulesSkipped = try Selection(placement: placement, profileId: "x", locale: nil, responseCreatedAt: 0, context: context,
                                         choice: .defaultAudience)
        #expect(rulesSkipped?.variation.variationId == "a")
    }

    @Test func aForcedVariationSkipsRulesAndBucketingAndSaysItWasForced() throws {
        let placement = try placement(#"{"audiences":[{"placement_audience_version_id":"ios","rule":{"attribute":"platform","op":"eq","value":"ios"},"#
            + #""variations":[{"variation_id":"a","paywall_id":"pw","weight":0,"products":[]},{"variation_id":"b","paywall_id":"pw2","weight":100,"products":[]}]}]}"#)
        let forced = try Selection(placement: placement, profileId: "x", locale: nil, responseCreatedAt: 0, context: context,
                                   choice: .forced(variationId: "a"))
        #expect(forced?.variation.variationId == "a")
        #expect(forced?.forced == true)
        do throws(WireError) {
            _ = try Selection(placement: placement, profileId: "x", locale: nil, responseCreatedAt: 0, context: context,
                              choice: .forced(variationId: "zz"))
            Issue.record("an unknown forced variation was served")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.details["reason"] == .string("debug_override"))
        }
    }

    // MARK: - Debug overrides

    @Test func overridesAreRefusedWithoutDebugAndForceOnlyChoicesByAudience() throws {
        #expect(throws: WireError.self) { try DebugOverrides(enabled: false).replace(["p": "a"]) }
        let overrides = DebugOverrides(enabled: true)
        try overrides.replace(["p": "a"])
        #expect(overrides.choice(in: "p", .byAudience) == .forced(variationId: "a"))
        #expect(overrides.choice(in: "p", .defaultAudience) == .defaultAudience)
        #expect(overrides.choice(in: "q", .byAudience) == .byAudience)
        try overrides.replace([:])
        #expect(overrides.choice(in: "p", .byAudience) == .byAudience)
    }
}
