import GRDB
import PaywireModel
import ServerDomain

/// Transfers in SQLite: identities, the transfers kept, and the dashboard's profile view.
extension SQLiteStorage {
    package func identify(_ post: Identity.Request, policy: TransferPolicy, now: Int) async throws -> IdentityOutcome {
        try await database.write { db in
            try Self.meet(post.profileId, identifiedAs: post.customerUserId, now: now, db)
            let first = try String.fetchOne(db, sql: TransferStatements.firstHolder, arguments: [post.customerUserId])
            let customer = IdentityRules.customerProfile(asking: post.profileId, firstHolder: first)
            let before = try Self.transfers(of: post.eventId, .identity, db)
            guard before.isEmpty, IdentityRules.moves(asking: post.profileId, customerProfile: customer, policy: policy) else {
                return IdentityOutcome(profileId: customer, transferred: before)
            }
            let moved = try Self.moveAll(from: post.profileId, to: customer, .identity, eventId: post.eventId, now: now, db)
            return IdentityOutcome(profileId: customer, transferred: moved)
        }
    }

    package func profileView(_ profileId: String) async throws -> ProfileView {
        try await database.read { db in
            let profile = try Row.fetchOne(db, sql: Statements.profile, arguments: [profileId])
            let transactions = try Row.fetchAll(db, sql: TransferStatements.viewTransactions, arguments: [profileId, profileId]).map {
                ViewedTransaction(transactionId: $0["transaction_id"], vendorProductId: $0["vendor_product_id"], store: StoreName(rawValue: $0["store"]),
                                  status: try StoredText.purchaseStatus($0["status"]), environment: try StoredText.environment($0["environment"]), purchasedAt: $0["purchased_at"],
                                  expiresAt: $0["expires_at"], priceAmount: $0["price_amount"], currencyCode: $0["currency_code"],
                                  owner: $0["owner_profile_id"], purchaser: $0["purchaser_profile_id"], placementId: $0["placement_id"],
                                  abTestName: $0["ab_test_name"], variationId: $0["variation_id"])
            }
            let transfers = try Row.fetchAll(db, sql: TransferStatements.ofProfile, arguments: [profileId, profileId]).map {
                TransferEntry(record: Self.transfer($0), reason: try StoredText.transferReason($0["reason"]), transferredAt: $0["transferred_at"])
            }
            let web = try Row.fetchAll(db, sql: TransferStatements.viewWebPurchases, arguments: [profileId, profileId]).map {
                ViewedWebPurchase(checkoutSessionId: $0["checkout_session_id"], originalTransactionId: $0["original_transaction_id"],
                                  holder: $0["holder_profile_id"], redeemable: $0["redeemable"], completedAt: $0["completed_at"],
                                  tokenExpiresAt: $0["token_expires_at"], redeemedBy: $0["redeemed_by"], redeemedAt: $0["redeemed_at"])
            }
            return ProfileView(known: profile != nil, customerUserId: profile?["customer_user_id"], transactions: transactions,
                               transfers: transfers, webPurchases: web)
        }
    }

    /// What one request moved before, in order.
    package static func transfers(of eventId: String, _ reason: TransferReason, _ db: Database) throws -> [Transfer] {
        try Row.fetchAll(db, sql: TransferStatements.ofRequest, arguments: [eventId, reason.rawValue]).map(transfer)
    }

    package static func recordTransfer(_ transfer: Transfer, _ reason: TransferReason, eventId: String, now: Int, _ db: Database) throws {
        try db.execute(sql: TransferStatements.record, arguments: [transfer.transactionId, transfer.vendorProductId, transfer.fromProfileId,
                                                                  transfer.toProfileId, reason.rawValue, eventId, now])
    }

    /// Every transaction `from` holds moves to `to`, and its Stripe ids follow; each kept as a transfer.
    package static func moveAll(from: String, to: String, _ reason: TransferReason, eventId: String, now: Int, _ db: Database) throws -> [Transfer] {
        let moved = try Row.fetchAll(db, sql: TransferStatements.owned, arguments: [from]).map {
            Transfer(transactionId: $0["transaction_id"], vendorProductId: $0["vendor_product_id"], fromProfileId: from, toProfileId: to)
        }
        try db.execute(sql: WebPurchaseStatements.moveHeld, arguments: [to, from])
        try db.execute(sql: WebPurchaseStatements.moveLinks, arguments: [to, from])
        for transfer in moved { try recordTransfer(transfer, reason, eventId: eventId, now: now, db) }
        return moved
    }

    /// One purchase of `from` moves to `to` (a web paywall visitor's redeemed checkout), its own
    /// Stripe ids with it; each transaction kept as a transfer.
    package static func movePurchase(_ originalTransactionId: String, from: String, to: String, eventId: String, now: Int,
                             _ db: Database) throws -> [Transfer] {
        let moved = try Row.fetchAll(db, sql: WebPurchaseStatements.ownedOfPurchase, arguments: [from, originalTransactionId]).map {
            Transfer(transactionId: $0["transaction_id"], vendorProductId: $0["vendor_product_id"], fromProfileId: from, toProfileId: to)
        }
        try db.execute(sql: WebPurchaseStatements.movePurchase, arguments: [to, from, originalTransactionId])
        try db.execute(sql: WebPurchaseStatements.movePurchaseLinks, arguments: [to, from, originalTransactionId])
        for transfer in moved { try recordTransfer(transfer, .redemption, eventId: eventId, now: now, db) }
        return moved
    }

    /// A `transfers` row as the record it keeps.
    private static func transfer(_ row: Row) -> Transfer {
        Transfer(transactionId: row["transaction_id"], vendorProductId: row["vendor_product_id"],
                       fromProfileId: row["from_profile_id"], toProfileId: row["to_profile_id"])
    }
}
