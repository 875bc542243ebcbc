import GRDB
import PaywireModel
import ServerDomain

/// Web purchases (Stripe links, checkouts, redemptions) in SQLite.
extension SQLiteStorage {
    package func notificationSeen(source: StoreName, notificationId: String) async throws -> (outcome: NotificationOutcome, profileId: String?)? {
        try await database.read { db in
            guard let row = try Row.fetchOne(db, sql: Statements.seenNotification, arguments: [source.rawValue, notificationId]) else { return nil }
            let owner: String = row["profile_id"]
            return (outcome: try StoredText.notificationOutcome(row["outcome"]), profileId: owner.isEmpty ? nil : owner)
        }
    }

    package func stripeLinks(_ stripeIds: [String]) async throws -> [String: StripeLink] {
        try await database.read { db in
            var links: [String: StripeLink] = [:]
            for id in stripeIds {
                guard let row = try Row.fetchOne(db, sql: WebPurchaseStatements.link, arguments: [id]) else { continue }
                links[id] = StripeLink(stripeId: row["stripe_id"], originalTransactionId: row["original_transaction_id"], profileId: row["profile_id"])
            }
            return links
        }
    }

    package func keepStripe(checkout: WebCheckout?, links: [StripeLink], customer: StripeLink?) async throws {
        try await database.write { db in
            if let checkout {
                try db.execute(sql: WebPurchaseStatements.keepCheckout, arguments: [checkout.checkoutSessionId, checkout.originalTransactionId,
                                     checkout.holder, checkout.redeemable, checkout.completedAt])
            }
            for link in links {
                try db.execute(sql: WebPurchaseStatements.addLink, arguments: [link.stripeId, link.originalTransactionId, link.profileId])
            }
            if let customer { try db.execute(sql: WebPurchaseStatements.linkCustomer, arguments: [customer.stripeId, customer.profileId]) }
        }
    }

    package func webCheckout(_ checkoutSessionId: String) async throws -> WebCheckoutState? {
        try await database.read { db in
            try Row.fetchOne(db, sql: WebPurchaseStatements.checkout, arguments: [checkoutSessionId]).map {
                WebCheckoutState(holder: $0["holder_profile_id"], redeemable: $0["redeemable"], redeemedBy: $0["redeemed_by"],
                                 tokenDigest: $0["token_sha256"], tokenExpiresAt: $0["token_expires_at"])
            }
        }
    }

    package func issueRedemption(checkoutSessionId: String, digest: String, expiresAt: Int) async throws -> Redemption.Issue {
        try await database.write { db in
            guard let row = try Row.fetchOne(db, sql: WebPurchaseStatements.checkout, arguments: [checkoutSessionId]) else { return .unknown }
            let holder: String = row["holder_profile_id"], redeemable: Bool = row["redeemable"], redeemedBy: String? = row["redeemed_by"]
            guard redeemable else { return .notRedeemable(profileId: holder) }
            if let redeemedBy { return .alreadyRedeemed(profileId: redeemedBy) }
            try db.execute(sql: WebPurchaseStatements.issue, arguments: [digest, expiresAt, checkoutSessionId])
            return .issued
        }
    }

    package func redeem(digest: String, profileId: String, now: Int) async throws -> Redemption.Result {
        try await database.write { db in
            let held = try Row.fetchOne(db, sql: WebPurchaseStatements.held, arguments: [digest]).map {
                Redemption.Held(checkoutSessionId: $0["checkout_session_id"], holder: $0["holder_profile_id"],
                                expiresAt: $0["token_expires_at"], redeemedBy: $0["redeemed_by"],
                                originalTransactionId: $0["original_transaction_id"])
            }
            let result = Redemption.decide(held, profileId: profileId, now: now)
            guard result == .redeemed, let held else { return result }
            try db.execute(sql: WebPurchaseStatements.redeemed, arguments: [profileId, now, held.checkoutSessionId])
            try Self.meet(profileId, identifiedAs: nil, now: now, db)
            if held.holdsThisCheckoutOnly {
                _ = try Self.moveAll(from: held.holder, to: profileId, .redemption, eventId: held.checkoutSessionId, now: now, db)
            } else {
                _ = try Self.movePurchase(held.originalTransactionId ?? "", from: held.holder, to: profileId, eventId: held.checkoutSessionId,
                                          now: now, db)
            }
            return result
        }
    }
}
