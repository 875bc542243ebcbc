import GRDB
import PaywireModel
import PaywireWire

/// The backend's profile (`ProfileBody`): grants from the verified transactions a profile
/// owns, merged with a profile set by `PUT /_dev/profiles/{id}` or `--profiles`. For each
/// access level (and each subscription product) the grant with the later expiry wins, a grant
/// for life (no expiry) beating any dated one.
extension Store {
    /// The profile, or nil when the backend has met it neither through a purchase or restore
    /// nor through a dev profile.
    func profileBody(_ profileId: String, devProfile: JSONValue?, now: Int) async throws -> JSONValue? {
        let (known, customerUserId, grants, lifecycles) = try await database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT customer_user_id FROM profiles WHERE profile_id = ?", arguments: [profileId])
            let grants = try Row.fetchAll(db, sql: """
                SELECT transaction_id, original_transaction_id, vendor_product_id, purchased_at, expires_at, access_level,
                    product_type, environment, store
                FROM transactions WHERE owner_profile_id = ? AND status = 'verified' ORDER BY purchased_at, transaction_id
                """, arguments: [profileId]).map(OwnedGrant.init)
            return (row != nil, row?["customer_user_id"] as String?, grants, try Store.lifecycles(owner: profileId, db))
        }
        guard known || devProfile != nil else { return nil }
        var accessLevels = Grants(devProfile?["access_levels"])
        var subscriptions = Grants(devProfile?["subscriptions"])
        var purchases = NonSubscriptions(devProfile?["non_subscriptions"])
        var testUser = devProfile?["is_test_user"]?.asBool ?? false
        for owned in grants {
            // What store notifications said of this subscription, when any came.
            let lifecycle = lifecycles[owned.originalTransactionId]
            let grant = owned.grant(lifecycle, now: now)
            let standing = lifecycle?.standing ?? GrantStanding(expiresAt: owned.expiresAt)
            switch owned.productType {
            case "consumable", "non_consumable": purchases.add(owned, refunded: lifecycle?.isRefund ?? false)
            default: subscriptions.offer(owned.vendorProductId, grant, standing: standing)
            }
            if let level = owned.accessLevel, owned.productType != "consumable" {
                accessLevels.offer(level, grant, standing: standing)
            }
            testUser = testUser || owned.isTest
        }
        var object: JSONObject
        if case .object(let dev)? = devProfile { object = dev } else { object = JSONObject() }
        if let customerUserId, object["customer_user_id"] == nil { object.set("customer_user_id", .string(customerUserId)) }
        object.set("access_levels", accessLevels.json)
        object.set("subscriptions", subscriptions.json)
        object.set("non_subscriptions", purchases.json)
        if object["custom_attributes"] == nil { object.set("custom_attributes", .object([])) }
        object.set("is_test_user", .bool(testUser))
        return .object(object)
    }
}

/// A verified transaction a profile owns, as read from the store.
struct OwnedGrant: Sendable {
    let transactionId: String
    let originalTransactionId: String
    let vendorProductId: String
    let purchasedAt: Int
    let expiresAt: Int?
    /// Nil: the product grants no access level.
    let accessLevel: String?
    let productType: String
    let store: String
    /// A sandbox or test-store transaction makes its owner a test user.
    let isTest: Bool
    let isSandbox: Bool

    init(_ row: Row) {
        transactionId = row["transaction_id"]
        originalTransactionId = row["original_transaction_id"]
        vendorProductId = row["vendor_product_id"]
        purchasedAt = row["purchased_at"]
        expiresAt = row["expires_at"]
        accessLevel = row["access_level"]
        productType = row["product_type"]
        store = row["store"]
        isSandbox = row["environment"] as String == "sandbox"
        isTest = isSandbox || store == "test"
    }

    /// The grant. Without store notifications it has the lifecycle the backend knows from the
    /// purchase alone: a subscription renews until its expiry, a non-consumable lasts for life.
    /// With them (`lifecycle`), every lifecycle field says what the store last reported.
    func grant(_ lifecycle: LifecycleState?, now: Int) -> JSONValue {
        let date = { (time: Int?) -> JSONValue in time.map { .string(ISODate.format(milliseconds: $0)) } ?? .null }
        let text = { (value: String?) -> JSONValue in value.map { .string($0) } ?? .null }
        var members: [(String, JSONValue)] = [
            ("vendor_product_id", .string(vendorProductId)),
            ("activated_at", date(purchasedAt)),
            ("expires_at", date(lifecycle.map { $0.expiresAt } ?? expiresAt)),
            ("transaction_id", .string(lifecycle?.transactionId ?? transactionId)),
            ("original_transaction_id", .string(originalTransactionId)),
            ("store", .string(store)),
            ("is_sandbox", .bool(isSandbox)),
            ("is_lifetime", .bool(productType == "non_consumable")),
            ("will_renew", .bool(lifecycle?.willRenew ?? (productType == "autorenewable"))),
        ]
        guard let lifecycle else { return .object(members) }
        members += [
            ("is_active", .bool(lifecycle.isActive(now: now))),
            ("renewed_at", date(lifecycle.renewedAt)),
            ("is_in_grace_period", .bool(lifecycle.isInGracePeriod)),
            ("grace_period_expires_at", date(lifecycle.gracePeriodExpiresAt)),
            ("billing_issue_detected_at", date(lifecycle.billingIssueDetectedAt)),
            ("unsubscribed_at", date(lifecycle.unsubscribedAt)),
            ("cancellation_reason", text(lifecycle.cancellationReason)),
            ("is_refund", .bool(lifecycle.isRefund)),
            ("refunded_at", date(lifecycle.refundedAt)),
        ]
        return .object(members)
    }

    /// Its entry in `non_subscriptions`.
    func purchase(refunded: Bool) -> JSONValue {
        .object([
            ("purchase_id", .string(transactionId)),
            ("vendor_product_id", .string(vendorProductId)),
            ("purchased_at", .string(ISODate.format(milliseconds: purchasedAt))),
            ("is_consumable", .bool(productType == "consumable")),
            ("is_refund", .bool(refunded)),
            ("is_sandbox", .bool(isSandbox)),
            ("store", .string(store)),
        ])
    }
}

/// Consumable and non-consumable purchases by product, oldest first.
struct NonSubscriptions {
    private var lists: [(key: String, items: [JSONValue])] = []

    /// Starts from a dev profile's `non_subscriptions` (as authored).
    init(_ authored: JSONValue?) {
        guard case .object(let object)? = authored else { return }
        for (key, value) in object.members {
            if case .array(let items) = value { lists.append((key, items)) }
        }
    }

    mutating func add(_ owned: OwnedGrant, refunded: Bool) {
        let purchase = owned.purchase(refunded: refunded)
        if let index = lists.firstIndex(where: { $0.key == owned.vendorProductId }) {
            lists[index].items.append(purchase)
        } else {
            lists.append((owned.vendorProductId, [purchase]))
        }
    }

    var json: JSONValue { .object(lists.map { ($0.key, .array($0.items)) }) }
}

/// Grants by key, keeping the one the model's rule ranks first (`GrantStanding.outranks`): a
/// grant not refunded over a refunded one, then the one whose access ends later.
struct Grants {
    private var grants: [(key: String, grant: JSONValue, standing: GrantStanding)] = []

    /// Starts from a dev profile's grants object (as authored).
    init(_ authored: JSONValue?) {
        guard case .object(let object)? = authored else { return }
        for (key, grant) in object.members {
            grants.append((key, grant, Self.standing(of: grant)))
        }
    }

    mutating func offer(_ key: String, _ grant: JSONValue, standing: GrantStanding) {
        if let index = grants.firstIndex(where: { $0.key == key }) {
            if standing.outranks(grants[index].standing) { grants[index] = (key, grant, standing) }
        } else {
            grants.append((key, grant, standing))
        }
    }

    var json: JSONValue { .object(grants.map { ($0.key, $0.grant) }) }

    /// An authored grant's times: null `expires_at` is for life; an unreadable date counts as
    /// already over.
    private static func standing(of grant: JSONValue) -> GrantStanding {
        func time(_ key: String) -> Int? { grant[key]?.asString.flatMap(ISODate.parse) }
        let expiresAt: Int? = (grant["expires_at"] ?? .null) == .null ? nil : (time("expires_at") ?? .min)
        return GrantStanding(startsAt: time("starts_at"), expiresAt: expiresAt, isRefund: grant["is_refund"]?.asBool ?? false,
                             isInGracePeriod: grant["is_in_grace_period"]?.asBool ?? false,
                             gracePeriodExpiresAt: time("grace_period_expires_at"))
    }
}
