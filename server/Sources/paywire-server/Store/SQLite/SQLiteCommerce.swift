import GRDB

/// Store transactions in SQLite: purchases, restores, the purchase log, and what a profile owns.
extension SQLiteStorage {
    func recordPurchase(_ post: PurchasePost, product: Product?, refusal: Refusal?, request: String) async throws -> Result<String, Refusal> {
        try await database.write { db in
            try Self.meet(post.profileId, post.customerUserId, db)
            let claim = post.claim
            let existing = try Row.fetchOne(db, sql: """
                SELECT owner_profile_id, purchaser_profile_id, vendor_product_id, status FROM transactions WHERE transaction_id = ?
                """, arguments: [claim.transactionId]).map {
                StorageRules.KnownTransaction(owner: $0["owner_profile_id"], purchaser: $0["purchaser_profile_id"],
                                              productId: $0["vendor_product_id"], status: $0["status"])
            }
            let status: String
            switch StorageRules.purchase(post, hasProduct: product != nil, refusal: refusal, existing: existing) {
            case .refuse(let refusal):
                try Self.log(claim.transactionId, post.profileId, "refused", refusal.code.rawValue, request, db)
                return .failure(refusal)
            case .unchanged(let stored):
                return .success(stored)
            case .verifyPending:
                status = "verified"
                try db.execute(sql: "UPDATE transactions SET status = 'verified', purchased_at = ?, expires_at = ? WHERE transaction_id = ?",
                               arguments: [claim.purchasedAt, product?.expiry(from: claim.purchasedAt), claim.transactionId])
            case .insert(let new):
                guard let product else { return .failure(Refusal(code: .unknownProduct, message: "no product '\(claim.vendorProductId)'")) }
                status = new
                try Self.insert(claim, owner: post.profileId, status: new, product: product, db)
            }
            try db.execute(sql: """
                UPDATE transactions SET price_amount = ?, currency_code = ?, placement_id = ?, ab_test_name = ?, variation_id = ?
                WHERE transaction_id = ?
                """, arguments: [post.amount ?? product?.price, post.currencyCode ?? product?.currencyCode, post.attribution?.placementId,
                                 post.attribution?.abTestName, post.attribution?.variationId, claim.transactionId])
            try Self.log(claim.transactionId, post.profileId, status, "", request, db)
            return .success(status)
        }
    }

    func recordRestore(_ post: RestorePost, products: [String: Product], refusals: [String: Refusal]) async throws -> RestoreOutcome {
        try await database.write { db in
            try Self.meet(post.profileId, post.customerUserId, db)
            var restored: [TransactionClaim] = [], refused: [(TransactionClaim, Refusal)] = []
            for claim in post.claims {
                let existingProduct = try String.fetchOne(db, sql: "SELECT vendor_product_id FROM transactions WHERE transaction_id = ?",
                                                          arguments: [claim.transactionId])
                switch StorageRules.restore(claim, refusal: refusals[claim.transactionId], existingProduct: existingProduct,
                                            hasProduct: products[claim.vendorProductId] != nil) {
                case .refuse(let refusal):
                    try Self.log(claim.transactionId, post.profileId, "refused", refusal.code.rawValue, claim.text, db)
                    refused.append((claim, refusal))
                    continue
                case .move:
                    try db.execute(sql: "UPDATE transactions SET owner_profile_id = ?, status = 'verified' WHERE transaction_id = ?",
                                   arguments: [post.profileId, claim.transactionId])
                case .insert:
                    guard let product = products[claim.vendorProductId] else { continue }
                    try Self.insert(claim, owner: post.profileId, status: "verified", product: product, db)
                }
                try Self.log(claim.transactionId, post.profileId, "verified", "", claim.text, db)
                restored.append(claim)
            }
            return RestoreOutcome(restored: restored, refused: refused)
        }
    }

    func purchaseLog(profileId: String?) async throws -> [PurchaseLogEntry] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT request, status, code FROM purchase_log \(profileId == nil ? "" : "WHERE profile_id = ?") ORDER BY arrival",
                             arguments: StatementArguments(profileId.map { [$0] } ?? [])).map {
                PurchaseLogEntry(request: $0["request"], status: $0["status"], code: $0["code"])
            }
        }
    }

    func profileFacts(_ profileId: String) async throws -> ProfileFacts {
        try await database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT customer_user_id FROM profiles WHERE profile_id = ?", arguments: [profileId])
            let grants = try Row.fetchAll(db, sql: """
                SELECT transaction_id, original_transaction_id, vendor_product_id, purchased_at, expires_at, access_level,
                    product_type, environment, store
                FROM transactions WHERE owner_profile_id = ? AND status = 'verified' ORDER BY purchased_at, transaction_id
                """, arguments: [profileId]).map {
                OwnedGrant(transactionId: $0["transaction_id"], originalTransactionId: $0["original_transaction_id"],
                           vendorProductId: $0["vendor_product_id"], purchasedAt: $0["purchased_at"], expiresAt: $0["expires_at"],
                           accessLevel: $0["access_level"], productType: $0["product_type"], store: $0["store"],
                           environment: $0["environment"])
            }
            var lifecycles: [String: LifecycleState] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT * FROM lifecycles WHERE original_transaction_id IN
                    (SELECT original_transaction_id FROM transactions WHERE owner_profile_id = ? AND status = 'verified')
                """, arguments: [profileId]) {
                lifecycles[row["original_transaction_id"]] = Self.lifecycle(row)
            }
            return ProfileFacts(known: row != nil, customerUserId: row?["customer_user_id"], grants: grants, lifecycles: lifecycles)
        }
    }

    static func insert(_ claim: TransactionClaim, owner: String, status: String, product: Product, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO transactions (transaction_id, original_transaction_id, vendor_product_id, owner_profile_id,
                purchaser_profile_id, status, environment, store, purchased_at, expires_at, access_level, product_type)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [claim.transactionId, claim.originalTransactionId, claim.vendorProductId, owner, owner, status,
                             claim.environment, claim.store, claim.purchasedAt, product.expiry(from: claim.purchasedAt),
                             product.accessLevel, product.productType])
    }

    /// The backend has met this profile (a purchase or restore named it).
    static func meet(_ profileId: String, _ customerUserId: String?, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO profiles (profile_id, customer_user_id) VALUES (?, ?)
            ON CONFLICT (profile_id) DO UPDATE SET customer_user_id = COALESCE(excluded.customer_user_id, profiles.customer_user_id)
            """, arguments: [profileId, customerUserId])
    }

    /// Each distinct outcome of a transaction for a profile once.
    static func log(_ transactionId: String, _ profileId: String, _ status: String, _ code: String, _ request: String, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO purchase_log (transaction_id, profile_id, status, code, request) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (transaction_id, profile_id, status, code) DO NOTHING
            """, arguments: [transactionId, profileId, status, code, request])
    }
}
