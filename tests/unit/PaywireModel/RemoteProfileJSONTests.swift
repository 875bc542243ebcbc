import Testing
@testable import PaywireModel
@testable import PaywireWire

/// The backend's profile as the backend writes it (`Snapshot.json`) and as the device reads it
/// (`RemoteProfile.parse(profile:)`): one form, so what one writes the other reads unchanged.
@Suite struct RemoteProfileJSONTests {
    private let day = 86_400_000

    private func snapshot() -> RemoteProfile.Snapshot {
        var grant = Profile.Grant(vendorProductId: "monthly", activatedAt: 1_700_000_000_000, expiresAt: 1_700_000_000_000 + 30 * day)
        grant.verified = true
        grant.transactionId = "t-2"
        grant.originalTransactionId = "t-1"
        grant.store = "app_store"
        grant.willRenew = false
        grant.unsubscribedAt = 1_700_000_000_000 + day
        grant.cancellationReason = .voluntarily_cancelled
        var lifetime = Profile.Grant(vendorProductId: "forever", activatedAt: 1_700_000_000_000, expiresAt: nil)
        lifetime.verified = true
        lifetime.isLifetime = true
        var coins = Profile.NonSubscription(purchaseId: "t-9", vendorProductId: "coins", purchasedAt: 1_700_000_000_000, isConsumable: true)
        coins.verified = true
        coins.isRefund = true
        var snapshot = RemoteProfile.Snapshot()
        snapshot.accessLevels = [("premium", grant), ("lifetime", lifetime)]
        snapshot.subscriptions = [("monthly", grant)]
        Profile.record(coins, into: &snapshot.nonSubscriptions)
        Profile.record(coins, into: &snapshot.nonSubscriptions)
        snapshot.customAttributes = JSONObject([("level", .number(JSONNumber(7)))])
        snapshot.isTestUser = true
        return snapshot
    }

    @Test func whatTheBackendWritesTheDeviceReadsUnchanged() throws {
        let written = snapshot()
        guard case .object(let object) = written.json(customerUserId: "u-1", isActive: { _ in nil }) else {
            Issue.record("the profile is not an object")
            return
        }
        #expect(object["customer_user_id"] == .string("u-1"))
        let read = try RemoteProfile.parse(profile: object)
        #expect(read.accessLevels.map(\.id) == ["premium", "lifetime"])
        #expect(read.accessLevels.map(\.grant) == written.accessLevels.map(\.grant))
        #expect(read.subscriptions.map(\.grant) == written.subscriptions.map(\.grant))
        #expect(read.nonSubscriptions.map(\.purchases) == [[written.nonSubscriptions[0].purchases[0]]])
        #expect(read.customAttributes == written.customAttributes)
        #expect(read.isTestUser)
    }

    @Test func aGrantCarriesIsActiveOnlyWhenTheWriterGivesOne() {
        let written = snapshot().json(customerUserId: nil, isActive: { $0.vendorProductId == "forever" ? true : nil })
        #expect(member(written, "customer_user_id") == nil)
        #expect(member(written, "access_levels", "lifetime", "is_active") == .bool(true))
        #expect(member(written, "access_levels", "premium", "is_active") == nil)
        #expect(member(written, "access_levels", "premium", "cancellation_reason") == .string("voluntarily_cancelled"))
    }

    private func member(_ value: JSONValue, _ path: String...) -> JSONValue? {
        var current: JSONValue? = value
        for key in path {
            guard case .object(let object)? = current else { return nil }
            current = object[key]
        }
        return current
    }
}
