import Testing
@testable import PaywireModel

/// The one rule by which the device and the backend judge grants, on the cases where their two
/// copies of it used to disagree.
@Suite struct GrantStandingTests {
    private let day = 86_400_000

    @Test func aLiveGrantOutranksARefundedOneThatWouldHaveLastedLonger() {
        let live = GrantStanding(expiresAt: 10 * day)
        let refunded = GrantStanding(expiresAt: 30 * day, isRefund: true)
        #expect(live.outranks(refunded))
        #expect(!refunded.outranks(live))
    }

    @Test func aGracePeriodCountsWhenRankingByWhenAccessEnds() {
        let retrying = GrantStanding(expiresAt: 10 * day, isInGracePeriod: true, gracePeriodExpiresAt: 26 * day)
        let renewed = GrantStanding(expiresAt: 20 * day)
        #expect(retrying.outranks(renewed))
        #expect(!renewed.outranks(retrying))
        // A grace period the store no longer grants does not count.
        let over = GrantStanding(expiresAt: 10 * day, isInGracePeriod: false, gracePeriodExpiresAt: 26 * day)
        #expect(renewed.outranks(over))
    }

    @Test func forLifeOutranksAnyDateAndTiesKeepTheGrantAlreadyThere() {
        let lifetime = GrantStanding(expiresAt: nil)
        let dated = GrantStanding(expiresAt: 365 * day)
        #expect(lifetime.outranks(dated))
        #expect(!dated.outranks(lifetime))
        #expect(!dated.outranks(dated))
    }

    @Test func accessLastsUntilTheLaterOfExpiryAndGraceWhileTheStoreRetries() {
        let grant = GrantStanding(expiresAt: 10 * day, isInGracePeriod: true, gracePeriodExpiresAt: 16 * day)
        #expect(grant.accessEnds == 16 * day)
        #expect(grant.isActive(now: 12 * day))
        #expect(!grant.isActive(now: 16 * day))
        #expect(grant.nextChange(after: 12 * day) == 16 * day)
        #expect(!GrantStanding(expiresAt: 10 * day, isRefund: true).isActive(now: 0))
        #expect(!GrantStanding(startsAt: 5 * day, expiresAt: 10 * day).isActive(now: 4 * day))
    }

    @Test func theProfileMergeKeepsTheGrantTheRuleRanksFirst() {
        var list: [(id: String, grant: Profile.Grant)] = []
        var retrying = Profile.Grant(vendorProductId: "monthly", activatedAt: 0, expiresAt: 10 * day)
        retrying.isInGracePeriod = true
        retrying.gracePeriodExpiresAt = 26 * day
        Profile.merge(retrying, as: "premium", into: &list)
        Profile.merge(Profile.Grant(vendorProductId: "annual", activatedAt: 0, expiresAt: 20 * day), as: "premium", into: &list)
        #expect(list.map(\.grant.vendorProductId) == ["monthly"])
    }
}
