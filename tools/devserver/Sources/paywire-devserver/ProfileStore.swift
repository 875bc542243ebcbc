import GRDB
import PaywireCore

/// The backend's profile (`ProfileBody`): grants from the verified transactions a profile
/// owns, merged with a profile set by `PUT /_dev/profiles/{id}` or `--profiles`. For each
/// access level (and each subscription product) the grant with the later expiry wins, a grant
/// for life (no expiry) beating any dated one.
extension Store {
    /// The profile, or nil when the backend has met it neither through a purchase or restore
    /// nor through a dev profile.
    func profileBody(_ profileId: String, devProfile: JSONValue?) async throws -> JSONValue? {
        let (known, customerUserId, grants) = try await database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT customer_user_id FROM profiles WHERE profile_id = ?", arguments: [profileId])
            let grants = try Row.fetchAll(db, sql: """
                SELECT transaction_id, vendor_product_id, purchased_at, expires_at, access_level, is_subscription, environment, store
                FROM transactions WHERE owner_profile_id = ? AND status = 'verified' ORDER BY purchased_at, transaction_id
                """, arguments: [profileId]).map(OwnedGrant.init)
            return (row != nil, row?["customer_user_id"] as String?, grants)
        }
        guard known || devProfile != nil else { return nil }
        var accessLevels = Grants(devProfile?["access_levels"])
        var subscriptions = Grants(devProfile?["subscriptions"])
        var testUser = devProfile?["is_test_user"]?.asBool ?? false
        for owned in grants {
            let grant = JSONValue.object([
                ("vendor_product_id", .string(owned.vendorProductId)),
                ("activated_at", .string(DevServerSupport.isoDate(milliseconds: owned.purchasedAt))),
                ("expires_at", owned.expiresAt.map { .string(DevServerSupport.isoDate(milliseconds: $0)) } ?? .null),
                ("transaction_id", .string(owned.transactionId)),
            ])
            accessLevels.offer(owned.accessLevel, grant, expiresAt: owned.expiresAt)
            if owned.isSubscription { subscriptions.offer(owned.vendorProductId, grant, expiresAt: owned.expiresAt) }
            testUser = testUser || owned.isTest
        }
        var object: JSONObject
        if case .object(let dev)? = devProfile { object = dev } else { object = JSONObject() }
        if let customerUserId, object["customer_user_id"] == nil { object.set("customer_user_id", .string(customerUserId)) }
        object.set("access_levels", accessLevels.json)
        object.set("subscriptions", subscriptions.json)
        if object["custom_attributes"] == nil { object.set("custom_attributes", .object([])) }
        object.set("is_test_user", .bool(testUser))
        return .object(object)
    }
}

/// A verified transaction a profile owns, as read from the store.
struct OwnedGrant: Sendable {
    let transactionId: String
    let vendorProductId: String
    let purchasedAt: Int
    let expiresAt: Int?
    let accessLevel: String
    let isSubscription: Bool
    /// A sandbox or test-store transaction makes its owner a test user.
    let isTest: Bool

    init(_ row: Row) {
        transactionId = row["transaction_id"]
        vendorProductId = row["vendor_product_id"]
        purchasedAt = row["purchased_at"]
        expiresAt = row["expires_at"]
        accessLevel = row["access_level"]
        isSubscription = row["is_subscription"]
        isTest = row["environment"] as String == "sandbox" || row["store"] as String == "test"
    }
}

/// Grants by key, keeping the one that lasts longest.
struct Grants {
    private var grants: [(key: String, grant: JSONValue, expiry: Int)] = []

    /// Starts from a dev profile's grants object (as authored).
    init(_ authored: JSONValue?) {
        guard case .object(let object)? = authored else { return }
        for (key, grant) in object.members {
            grants.append((key, grant, Self.expiry(of: grant)))
        }
    }

    mutating func offer(_ key: String, _ grant: JSONValue, expiresAt: Int?) {
        let expiry = expiresAt ?? .max
        if let index = grants.firstIndex(where: { $0.key == key }) {
            if expiry > grants[index].expiry { grants[index] = (key, grant, expiry) }
        } else {
            grants.append((key, grant, expiry))
        }
    }

    var json: JSONValue { .object(grants.map { ($0.key, $0.grant) }) }

    /// A grant's expiry in ms: null is for life; an unreadable date counts as already over.
    private static func expiry(of grant: JSONValue) -> Int {
        guard let expires = grant["expires_at"], expires != .null else { return .max }
        return expires.asString.flatMap(DevServerSupport.parseISODate) ?? .min
    }
}
