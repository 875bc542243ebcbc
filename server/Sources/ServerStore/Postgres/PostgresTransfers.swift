import PaywireModel
import PostgresNIO
import ServerDomain

/// Transfers in PostgreSQL: identities (one SERIALIZABLE transaction each, so two replicas
/// identifying two profiles as one new customer at once give one customer's profile), the
/// transfers kept, and the dashboard's profile view.
extension PostgresStorage {
    package func identify(_ post: Identity.Request, policy: TransferPolicy, now: Int) async throws -> IdentityOutcome {
        try await serializable { connection in
            try await self.meet(post.profileId, identifiedAs: post.customerUserId, now: now, connection)
            let first = try await self.rows(TransferStatements.firstHolder, [.text(post.customerUserId)], on: connection)
                .first?["profile_id"].decode(String.self)
            let customer = IdentityRules.customerProfile(asking: post.profileId, firstHolder: first)
            let before = try await self.transfers(of: post.eventId, .identity, connection)
            guard before.isEmpty, IdentityRules.moves(asking: post.profileId, customerProfile: customer, policy: policy) else {
                return IdentityOutcome(profileId: customer, transferred: before)
            }
            let moved = try await self.moveAll(from: post.profileId, to: customer, .identity, eventId: post.eventId, now: now, connection)
            return IdentityOutcome(profileId: customer, transferred: moved)
        }
    }

    package func profileView(_ profileId: String) async throws -> ProfileView {
        let profile = try await rows(Statements.profile, [.text(profileId)]).first
        let transactions = try await rows(TransferStatements.viewTransactions, [.text(profileId), .text(profileId)]).map {
            ViewedTransaction(transactionId: try $0["transaction_id"].decode(String.self), vendorProductId: try $0["vendor_product_id"].decode(String.self),
                              store: StoreName(rawValue: try $0["store"].decode(String.self)),
                              status: try StoredText.purchaseStatus(try $0["status"].decode(String.self)),
                              environment: try StoredText.environment(try $0["environment"].decode(String.self)), purchasedAt: try $0["purchased_at"].decode(Int.self),
                              expiresAt: try $0["expires_at"].decode(Int?.self), priceAmount: try $0["price_amount"].decode(String?.self),
                              currencyCode: try $0["currency_code"].decode(String?.self), owner: try $0["owner_profile_id"].decode(String.self),
                              purchaser: try $0["purchaser_profile_id"].decode(String.self), placementId: try $0["placement_id"].decode(String?.self),
                              abTestName: try $0["ab_test_name"].decode(String?.self), variationId: try $0["variation_id"].decode(String?.self))
        }
        let transfers = try await rows(TransferStatements.ofProfile, [.text(profileId), .text(profileId)]).map {
            TransferEntry(record: try Self.transfer($0), reason: try StoredText.transferReason(try $0["reason"].decode(String.self)),
                          transferredAt: try $0["transferred_at"].decode(Int.self))
        }
        let web = try await rows(TransferStatements.viewWebPurchases, [.text(profileId), .text(profileId)]).map {
            ViewedWebPurchase(checkoutSessionId: try $0["checkout_session_id"].decode(String.self),
                              originalTransactionId: try $0["original_transaction_id"].decode(String.self),
                              holder: try $0["holder_profile_id"].decode(String.self), redeemable: try $0["redeemable"].decode(Bool.self),
                              completedAt: try $0["completed_at"].decode(Int.self), tokenExpiresAt: try $0["token_expires_at"].decode(Int?.self),
                              redeemedBy: try $0["redeemed_by"].decode(String?.self), redeemedAt: try $0["redeemed_at"].decode(Int?.self))
        }
        return ProfileView(known: profile != nil, customerUserId: try profile?["customer_user_id"].decode(String?.self),
                           transactions: transactions, transfers: transfers, webPurchases: web)
    }

    /// What one request moved before, in order.
    package func transfers(of eventId: String, _ reason: TransferReason, _ connection: PostgresConnection) async throws -> [Transfer] {
        try await rows(TransferStatements.ofRequest, [.text(eventId), .text(reason.rawValue)], on: connection).map(Self.transfer)
    }

    package func recordTransfer(_ transfer: Transfer, _ reason: TransferReason, eventId: String, now: Int,
                        _ connection: PostgresConnection) async throws {
        _ = try await rows(TransferStatements.record, [.text(transfer.transactionId), .text(transfer.vendorProductId), .text(transfer.fromProfileId),
                                                       .text(transfer.toProfileId), .text(reason.rawValue), .text(eventId), .int(now)], on: connection)
    }

    /// Every transaction `from` holds moves to `to`, and its Stripe ids follow; each kept as a transfer.
    package func moveAll(from: String, to: String, _ reason: TransferReason, eventId: String, now: Int,
                 _ connection: PostgresConnection) async throws -> [Transfer] {
        let moved = try await rows(TransferStatements.owned, [.text(from)], on: connection).map {
            Transfer(transactionId: try $0["transaction_id"].decode(String.self), vendorProductId: try $0["vendor_product_id"].decode(String.self),
                           fromProfileId: from, toProfileId: to)
        }
        _ = try await rows(WebPurchaseStatements.moveHeld, [.text(to), .text(from)], on: connection)
        _ = try await rows(WebPurchaseStatements.moveLinks, [.text(to), .text(from)], on: connection)
        for transfer in moved { try await recordTransfer(transfer, reason, eventId: eventId, now: now, connection) }
        return moved
    }

    /// One purchase of `from` moves to `to` (a web paywall visitor's redeemed checkout), its own
    /// Stripe ids with it; each transaction kept as a transfer.
    package func movePurchase(_ originalTransactionId: String, from: String, to: String, eventId: String, now: Int,
                      _ connection: PostgresConnection) async throws -> [Transfer] {
        let moved = try await rows(WebPurchaseStatements.ownedOfPurchase, [.text(from), .text(originalTransactionId)], on: connection).map {
            Transfer(transactionId: try $0["transaction_id"].decode(String.self), vendorProductId: try $0["vendor_product_id"].decode(String.self),
                     fromProfileId: from, toProfileId: to)
        }
        _ = try await rows(WebPurchaseStatements.movePurchase, [.text(to), .text(from), .text(originalTransactionId)], on: connection)
        _ = try await rows(WebPurchaseStatements.movePurchaseLinks, [.text(to), .text(from), .text(originalTransactionId)], on: connection)
        for transfer in moved { try await recordTransfer(transfer, .redemption, eventId: eventId, now: now, connection) }
        return moved
    }

    private static func transfer(_ row: PostgresRandomAccessRow) throws -> Transfer {
        Transfer(transactionId: try row["transaction_id"].decode(String.self), vendorProductId: try row["vendor_product_id"].decode(String.self),
                       fromProfileId: try row["from_profile_id"].decode(String.self), toProfileId: try row["to_profile_id"].decode(String.self))
    }
}
