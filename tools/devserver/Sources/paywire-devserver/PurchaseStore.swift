import GRDB
import PaywireModel
import PaywireWire

/// Why a transaction was refused (`422`): one of the contract's codes and a reason for people.
struct Refusal: Error, Sendable {
    let code: String
    let message: String
}

/// Store transactions: purchases (idempotent on transaction id and state) and restores (which
/// move access to the restoring profile). Each decision reads and writes in one transaction.
extension Store {
    /// A checked purchase, or its refusal, recorded; returns the status (`verified` or
    /// `pending`) or the refusal, including `transaction_conflict` found here.
    func recordPurchase(_ post: PurchasePost, product: StoreProduct?, refusal: Refusal?, request: String) async throws -> Result<String, Refusal> {
        try await database.write { db in
            try Store.meet(post.profileId, post.customerUserId, db)
            let claim = post.claim
            if let refusal {
                try Store.log(claim.transactionId, post.profileId, "refused", refusal.code, request, db)
                return .failure(refusal)
            }
            guard let product else { return .failure(Refusal(code: "unknown_product", message: "no product")) }
            let status = post.pending ? "pending" : "verified"
            let amount = post.amount ?? product.priceText, currencyCode = post.currencyCode ?? product.currencyCode
            if let existing = try Row.fetchOne(db, sql: "SELECT * FROM transactions WHERE transaction_id = ?", arguments: [claim.transactionId]) {
                let owner: String = existing["owner_profile_id"], purchaser: String = existing["purchaser_profile_id"]
                let productId: String = existing["vendor_product_id"], current: String = existing["status"]
                guard productId == claim.vendorProductId, post.profileId == owner || post.profileId == purchaser else {
                    let refusal = Refusal(code: "transaction_conflict",
                                          message: "transaction '\(claim.transactionId)' is already known for another profile or product")
                    try Store.log(claim.transactionId, post.profileId, "refused", refusal.code, request, db)
                    return .failure(refusal)
                }
                guard current == "pending" && status == "verified" else { return .success(current) }
                try db.execute(sql: """
                    UPDATE transactions SET status = 'verified', purchased_at = ?, expires_at = ?, price_amount = ?, currency_code = ?,
                        placement_id = ?, ab_test_name = ?, variation_id = ? WHERE transaction_id = ?
                    """, arguments: [claim.purchasedAt, product.expiry(from: claim.purchasedAt), amount, currencyCode,
                                     post.attribution?.placementId, post.attribution?.abTestName, post.attribution?.variationId,
                                     claim.transactionId])
            } else {
                try Store.insert(claim, owner: post.profileId, status: status, product: product, db)
                try db.execute(sql: """
                    UPDATE transactions SET price_amount = ?, currency_code = ?, placement_id = ?, ab_test_name = ?, variation_id = ?
                    WHERE transaction_id = ?
                    """, arguments: [amount, currencyCode, post.attribution?.placementId, post.attribution?.abTestName,
                                     post.attribution?.variationId, claim.transactionId])
            }
            try Store.log(claim.transactionId, post.profileId, status, "", request, db)
            return .success(status)
        }
    }

    /// Restores checked claims to `post.profileId`; `refusals` are those already refused by
    /// verification (by transaction id). Returns what was restored and what was refused.
    func recordRestore(_ post: RestorePost, products: [String: StoreProduct], refusals: [String: Refusal])
        async throws -> (restored: [TransactionClaim], refused: [(TransactionClaim, Refusal)]) {
        try await database.write { db in
            try Store.meet(post.profileId, post.customerUserId, db)
            var restored: [TransactionClaim] = []
            var refused: [(TransactionClaim, Refusal)] = []
            for claim in post.claims {
                var refusal = refusals[claim.transactionId]
                let existingProduct = try String.fetchOne(db, sql: "SELECT vendor_product_id FROM transactions WHERE transaction_id = ?",
                                                          arguments: [claim.transactionId])
                if refusal == nil, let existingProduct, existingProduct != claim.vendorProductId {
                    refusal = Refusal(code: "transaction_conflict",
                                      message: "transaction '\(claim.transactionId)' is already known for product '\(existingProduct)'")
                }
                if let refusal {
                    try Store.log(claim.transactionId, post.profileId, "refused", refusal.code, claim.text, db)
                    refused.append((claim, refusal))
                    continue
                }
                if existingProduct != nil {
                    try db.execute(sql: "UPDATE transactions SET owner_profile_id = ?, status = 'verified' WHERE transaction_id = ?",
                                   arguments: [post.profileId, claim.transactionId])
                } else if let product = products[claim.vendorProductId] {
                    try Store.insert(claim, owner: post.profileId, status: "verified", product: product, db)
                }
                try Store.log(claim.transactionId, post.profileId, "verified", "", claim.text, db)
                restored.append(claim)
            }
            return (restored, refused)
        }
    }

    /// `/_dev/purchases`: every purchase post and restored claim with its outcome, in arrival
    /// order, each distinct outcome once.
    func purchaseLog(profileId: String?) async throws -> JSONValue {
        try await database.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT request, status, code FROM purchase_log \(profileId == nil ? "" : "WHERE profile_id = ?") ORDER BY arrival
                """, arguments: StatementArguments(profileId.map { [$0] } ?? []))
            return .array(rows.map { row in
                let text: String = row["request"], status: String = row["status"], code: String = row["code"]
                guard case .object(var object)? = try? JSONValue(parsing: Array(text.utf8)) else { return .null }
                object.set("status", .string(status))
                if !code.isEmpty { object.set("code", .string(code)) }
                return .object(object)
            })
        }
    }

    private static func insert(_ claim: TransactionClaim, owner: String, status: String, product: StoreProduct, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO transactions (transaction_id, original_transaction_id, vendor_product_id, owner_profile_id,
                purchaser_profile_id, status, environment, store, purchased_at, expires_at, access_level, is_subscription, product_type)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [claim.transactionId, claim.originalTransactionId, claim.vendorProductId, owner, owner, status,
                             claim.environment, claim.store, claim.purchasedAt, product.expiry(from: claim.purchasedAt),
                             product.accessLevel, product.productType.hasPeriod, product.productType.rawValue])
    }

    /// The backend has met this profile (a purchase or restore named it).
    private static func meet(_ profileId: String, _ customerUserId: String?, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO profiles (profile_id, customer_user_id) VALUES (?, ?)
            ON CONFLICT(profile_id) DO UPDATE SET customer_user_id = COALESCE(excluded.customer_user_id, customer_user_id)
            """, arguments: [profileId, customerUserId])
    }

    private static func log(_ transactionId: String, _ profileId: String, _ status: String, _ code: String, _ request: String, _ db: Database) throws {
        try db.execute(sql: """
            INSERT OR IGNORE INTO purchase_log (transaction_id, profile_id, status, code, request) VALUES (?, ?, ?, ?, ?)
            """, arguments: [transactionId, profileId, status, code, request])
    }
}
