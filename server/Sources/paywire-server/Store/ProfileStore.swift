import GRDB

/// What the store knows of a profile: whether it met it, its customer user id, the verified
/// transactions it owns and what store notifications said of them.
struct ProfileFacts: Sendable {
    let known: Bool
    let customerUserId: String?
    let grants: [OwnedGrant]
    /// By original transaction id.
    let lifecycles: [String: LifecycleState]
}

extension Store {
    func profileFacts(_ profileId: String) async throws -> ProfileFacts {
        try await database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT customer_user_id FROM profiles WHERE profile_id = ?", arguments: [profileId])
            let grants = try Row.fetchAll(db, sql: """
                SELECT transaction_id, original_transaction_id, vendor_product_id, purchased_at, expires_at, access_level,
                    product_type, environment, store
                FROM transactions WHERE owner_profile_id = ? AND status = 'verified' ORDER BY purchased_at, transaction_id
                """, arguments: [profileId]).map(OwnedGrant.init)
            return ProfileFacts(known: row != nil, customerUserId: row?["customer_user_id"], grants: grants,
                                lifecycles: try Store.lifecycles(owner: profileId, db))
        }
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
}
