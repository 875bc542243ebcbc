import Testing
@testable import PaywireModel
@testable import PaywireWire

/// Offline access on its own: how long the backend's grants are trusted, what the store's
/// current entitlements give by the map, and how offline grants sit beside the others.
@Suite struct OfflineAccessRulesTests {
    static let day = 86_400_000
    static let map = ["monthly": ProductAccess(accessLevelId: "premium", productType: .autorenewable),
                      "lifetime": ProductAccess(accessLevelId: "pro", productType: nil),
                      "coins": ProductAccess(accessLevelId: "premium", productType: .consumable)]

    func transaction(_ product: String, expiresAt: Int? = nil, type: ProductType? = nil, level: String? = nil) -> StoreTransaction {
        var transaction = StoreTransaction(transactionId: "t-\(product)", originalTransactionId: "t-\(product)", vendorProductId: product,
                                           purchasedAt: 1000, environment: .production, store: .appStore, verification: "",
                                           expiresAt: expiresAt)
        transaction.productType = type
        transaction.accessLevelId = level
        return transaction
    }

    func backendGrant(expiresAt: Int? = nil) -> Profile.Grant {
        var grant = Profile.Grant(vendorProductId: "monthly", activatedAt: 0, expiresAt: expiresAt)
        grant.verified = true
        grant.source = .backend
        return grant
    }

    func profile(answeredAt: Int, maxAge: Int?, levels: [(String, Profile.Grant)] = []) -> Profile {
        var profile = Profile(profileId: "p", customerUserId: nil)
        profile.backendAnsweredAt = answeredAt
        profile.offlineAccessMaxAge = maxAge
        profile.accessLevels = levels.map { (id: $0.0, grant: $0.1) }
        return profile
    }

    @Test func theBackendsGrantsGiveAccessUntilTheMaxAgeAfterItsLastAnswer() {
        let profile = profile(answeredAt: 10 * Self.day, maxAge: 7 * Self.day, levels: [("premium", backendGrant())])
        let grant = backendGrant()
        #expect(profile.givesAccess(grant, now: 16 * Self.day))
        #expect(!profile.givesAccess(grant, now: 17 * Self.day))
        #expect(profile.activeAccessLevels(now: 17 * Self.day).isEmpty)
        #expect(profile.nextAccessChange(after: 11 * Self.day) == 17 * Self.day)
    }

    @Test func theMaxAgeBoundsOnlyTheBackendsGrants() {
        let profile = profile(answeredAt: 0, maxAge: Self.day)
        var device = Profile.Grant(vendorProductId: "monthly", activatedAt: 0, expiresAt: nil)
        device.source = .device
        var offline = device
        offline.source = .offline
        #expect(profile.givesAccess(device, now: 5 * Self.day))
        #expect(profile.givesAccess(offline, now: 5 * Self.day))
        #expect(!profile.givesAccess(backendGrant(), now: 5 * Self.day))
        #expect(OfflineAccessRules.trusts(backendGrant(), until: nil, now: .max - 1))
    }

    @Test func aGrantsOwnExpiryStillEndsItWhileTrusted() {
        let profile = profile(answeredAt: 0, maxAge: 30 * Self.day)
        #expect(!profile.givesAccess(backendGrant(expiresAt: Self.day), now: 2 * Self.day))
    }

    @Test func aMappedProductGrantsItsAccessLevelOfflineAndUnverified() {
        let (decisions, unmapped) = OfflineAccessRules.decide([transaction("monthly", expiresAt: 5 * Self.day)], map: Self.map) { _ in nil }
        #expect(unmapped.isEmpty)
        #expect(decisions.count == 1)
        let grant = decisions.first?.accessLevel?.grant
        #expect(decisions.first?.accessLevel?.id == "premium")
        #expect(grant?.source == .offline && grant?.verified == false)
        #expect(grant?.expiresAt == 5 * Self.day && grant?.willRenew == true)
        #expect(decisions.first?.subscription?.grant.source == .offline)
        #expect(decisions.first?.nonSubscription == nil && decisions.first?.consumes == false)
    }

    @Test func anUnmappedProductGrantsNothingAndIsNamed() {
        let (decisions, unmapped) = OfflineAccessRules.decide([transaction("other", level: "premium")], map: Self.map) { _ in nil }
        #expect(decisions.isEmpty)
        #expect(unmapped == ["other"])
    }

    @Test func theHostsWordNeverWidensWhatTheMapSays() {
        // The transaction names another access level and a lifetime type: the map's level stands,
        // and its type (the map names none here) comes from the expiry, not the host.
        let (decisions, _) = OfflineAccessRules.decide([transaction("lifetime", expiresAt: 3 * Self.day, type: .non_consumable, level: "vip")],
                                                       map: Self.map) { _ in nil }
        #expect(decisions.first?.accessLevel?.id == "pro")
        #expect(decisions.first?.accessLevel?.grant.expiresAt == 3 * Self.day)
        #expect(decisions.first?.accessLevel?.grant.isLifetime == false)
    }

    @Test func aConsumableGrantsNothingOffline() {
        let (decisions, unmapped) = OfflineAccessRules.decide([transaction("coins")], map: Self.map) { _ in nil }
        #expect(decisions.isEmpty && unmapped.isEmpty)
    }

    @Test func anOfflineGrantTakesOnlyALevelThatGivesNoAccess() {
        let (decisions, _) = OfflineAccessRules.decide([transaction("monthly", expiresAt: 40 * Self.day)], map: Self.map) { _ in nil }
        // Trusted and active: the backend's grant stands.
        let fresh = profile(answeredAt: 10 * Self.day, maxAge: 7 * Self.day, levels: [("premium", backendGrant())])
        #expect(OfflineAccessRules.replace(in: fresh, with: decisions, now: 11 * Self.day).accessLevels.first?.grant.source == .backend)
        // Past its trust: the offline grant takes the level.
        let stale = OfflineAccessRules.replace(in: fresh, with: decisions, now: 20 * Self.day)
        #expect(stale.accessLevels.first?.grant.source == .offline)
        #expect(stale.activeAccessLevels(now: 20 * Self.day) == ["premium"])
        // Expired by its own time: likewise.
        let expired = profile(answeredAt: 10 * Self.day, maxAge: 7 * Self.day, levels: [("premium", backendGrant(expiresAt: 11 * Self.day))])
        #expect(OfflineAccessRules.replace(in: expired, with: decisions, now: 12 * Self.day).accessLevels.first?.grant.source == .offline)
    }

    @Test func theStoresNextAnswerReplacesTheOfflineGrantsAndTheBackendRemovesThem() {
        let (first, _) = OfflineAccessRules.decide([transaction("monthly", expiresAt: 40 * Self.day), transaction("lifetime")],
                                                   map: Self.map) { _ in nil }
        let empty = profile(answeredAt: 0, maxAge: Self.day)
        let granted = OfflineAccessRules.replace(in: empty, with: first, now: Self.day)
        #expect(Set(granted.accessLevels.map(\.id)) == ["premium", "pro"])
        let (second, _) = OfflineAccessRules.decide([transaction("lifetime")], map: Self.map) { _ in nil }
        #expect(OfflineAccessRules.replace(in: granted, with: second, now: Self.day).accessLevels.map(\.id) == ["pro"])
        #expect(OfflineAccessRules.removed(from: granted).accessLevels.isEmpty)
        #expect(OfflineAccessRules.removed(from: granted).subscriptions.isEmpty)
    }

    @Test func theBackendsAnswerRemovesOfflineGrantsEvenOfATransactionItHasNotAnswered() {
        let (decisions, _) = OfflineAccessRules.decide([transaction("monthly", expiresAt: 40 * Self.day)], map: Self.map) { _ in nil }
        let offline = OfflineAccessRules.replace(in: profile(answeredAt: 0, maxAge: Self.day), with: decisions, now: Self.day)
        let answered = RemoteProfile.apply(RemoteProfile.Snapshot(), to: offline, pending: ["t-monthly"])
        #expect(answered.accessLevels.isEmpty && answered.subscriptions.isEmpty)
    }

    @Test func offlineGrantsAreNeverKeptAndSourceIsReadBack() throws {
        var profile = profile(answeredAt: 5, maxAge: Self.day, levels: [("premium", backendGrant())])
        var offline = Profile.Grant(vendorProductId: "lifetime", activatedAt: 0, expiresAt: nil)
        offline.source = .offline
        profile.accessLevels.append((id: "pro", grant: offline))
        let read = try #require(Profile.fromRecord(profile.record))
        #expect(read.accessLevels.map(\.id) == ["premium"])
        #expect(read.accessLevels.first?.grant.source == .backend)
        #expect(read.backendAnsweredAt == 5)
    }

    @Test func aRecordWithoutSourceReadsVerifiedAsTheBackendsAndTheRestAsTheDevices() throws {
        let fields = JSONObject([("vendor_product_id", .string("p")), ("activated_at", .string("2024-01-15T10:30:00.000Z")),
                                 ("expires_at", .null), ("verified", .bool(true))])
        #expect(try Profile.Grant(fields, path: "g").source == .backend)
        var unverified = fields
        unverified.set("verified", .bool(false))
        #expect(try Profile.Grant(unverified, path: "g").source == .device)
    }
}
