import PaywireModel
import PostgresNIO
import ServerDomain

/// Web purchases (Stripe links, checkouts, redemptions) in PostgreSQL; each write one
/// SERIALIZABLE transaction, so two replicas redeeming one token at once give one owner.
extension PostgresStorage {
    package func notificationSeen(source: StoreName, notificationId: String) async throws -> (outcome: NotificationOutcome, profileId: String?)? {
        guard let row = try await rows(Statements.seenNotification, [.text(source.rawValue), .text(notificationId)]).first else { return nil }
        let owner = try row["profile_id"].decode(String.self)
        return (outcome: try StoredText.notificationOutcome(try row["outcome"].decode(String.self)), profileId: owner.isEmpty ? nil : owner)
    }

    package func stripeLinks(_ stripeIds: [String]) async throws -> [String: StripeLink] {
        var links: [String: StripeLink] = [:]
        for id in stripeIds {
            guard let row = try await rows(WebPurchaseStatements.link, [.text(id)]).first else { continue }
            links[id] = StripeLink(stripeId: try row["stripe_id"].decode(String.self),
                                   originalTransactionId: try row["original_transaction_id"].decode(String?.self),
                                   profileId: try row["profile_id"].decode(String.self))
        }
        return links
    }

    package func keepStripe(checkout: WebCheckout?, links: [StripeLink], customer: StripeLink?) async throws {
        try await serializable { connection in
            if let checkout {
                _ = try await self.rows(WebPurchaseStatements.keepCheckout, [.text(checkout.checkoutSessionId), .text(checkout.originalTransactionId),
                                        .text(checkout.holder), .bool(checkout.redeemable), .int(checkout.completedAt)], on: connection)
            }
            for link in links {
                _ = try await self.rows(WebPurchaseStatements.addLink, [.text(link.stripeId), .text(link.originalTransactionId), .text(link.profileId)],
                                        on: connection)
            }
            if let customer {
                _ = try await self.rows(WebPurchaseStatements.linkCustomer, [.text(customer.stripeId), .text(customer.profileId)], on: connection)
            }
        }
    }

    package func webCheckout(_ checkoutSessionId: String) async throws -> WebCheckoutState? {
        guard let row = try await rows(WebPurchaseStatements.checkout, [.text(checkoutSessionId)]).first else { return nil }
        return WebCheckoutState(holder: try row["holder_profile_id"].decode(String.self), redeemable: try row["redeemable"].decode(Bool.self),
                                redeemedBy: try row["redeemed_by"].decode(String?.self), tokenDigest: try row["token_sha256"].decode(String?.self),
                                tokenExpiresAt: try row["token_expires_at"].decode(Int?.self))
    }

    package func issueRedemption(checkoutSessionId: String, digest: String, expiresAt: Int) async throws -> Redemption.Issue {
        try await serializable { connection in
            guard let row = try await self.rows(WebPurchaseStatements.checkout, [.text(checkoutSessionId)], on: connection).first else { return .unknown }
            let holder = try row["holder_profile_id"].decode(String.self)
            guard try row["redeemable"].decode(Bool.self) else { return .notRedeemable(profileId: holder) }
            if let redeemedBy = try row["redeemed_by"].decode(String?.self) { return .alreadyRedeemed(profileId: redeemedBy) }
            _ = try await self.rows(WebPurchaseStatements.issue, [.text(digest), .int(expiresAt), .text(checkoutSessionId)], on: connection)
            return .issued
        }
    }

    package func redeem(digest: String, profileId: String, now: Int) async throws -> Redemption.Result {
        try await serializable { connection in
            let held = try await self.rows(WebPurchaseStatements.held, [.text(digest)], on: connection).first.map {
                Redemption.Held(checkoutSessionId: try $0["checkout_session_id"].decode(String.self),
                                holder: try $0["holder_profile_id"].decode(String.self),
                                expiresAt: try $0["token_expires_at"].decode(Int?.self), redeemedBy: try $0["redeemed_by"].decode(String?.self),
                                originalTransactionId: try $0["original_transaction_id"].decode(String?.self))
            }
            let result = Redemption.decide(held, profileId: profileId, now: now)
            guard result == .redeemed, let held else { return result }
            _ = try await self.rows(WebPurchaseStatements.redeemed, [.text(profileId), .int(now), .text(held.checkoutSessionId)], on: connection)
            try await self.meet(profileId, identifiedAs: nil, now: now, connection)
            if held.holdsThisCheckoutOnly {
                _ = try await self.moveAll(from: held.holder, to: profileId, .redemption, eventId: held.checkoutSessionId, now: now, connection)
            } else {
                _ = try await self.movePurchase(held.originalTransactionId ?? "", from: held.holder, to: profileId,
                                                eventId: held.checkoutSessionId, now: now, connection)
            }
            return result
        }
    }
}
