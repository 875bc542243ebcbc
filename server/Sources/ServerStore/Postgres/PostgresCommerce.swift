import PaywireModel
import PostgresNIO
import ServerDomain

/// Store transactions in PostgreSQL: purchases, restores, the purchase log, and what a profile owns.
extension PostgresStorage {
    package func recordPurchase(_ post: PurchasePost, product: StoreProduct?, refusal: Refusal?, request: String, now: Int) async throws -> Result<PurchaseStatus, Refusal> {
        try await serializable { connection in
            try await self.meet(post.profileId, identifiedAs: nil, now: now, connection)
            let claim = post.claim
            let existing = try await self.rows(Statements.knownTransaction, [.text(claim.transactionId)], on: connection).first.map {
                StorageRules.KnownTransaction(owner: try $0["owner_profile_id"].decode(String.self),
                                              purchaser: try $0["purchaser_profile_id"].decode(String.self),
                                              productId: try $0["vendor_product_id"].decode(String.self),
                                              status: try StoredText.purchaseStatus(try $0["status"].decode(String.self)))
            }
            let status: PurchaseStatus
            switch StorageRules.purchase(post, hasProduct: product != nil, refusal: refusal, existing: existing) {
            case .refuse(let refusal):
                try await self.log(claim.transactionId, post.profileId, SQLiteStorage.refused, refusal.code.rawValue, request, connection)
                return .failure(refusal)
            case .unchanged(let stored):
                return .success(stored)
            case .verifyPending:
                status = .verified
                _ = try await self.rows(Statements.verifyPending, [.int(claim.purchasedAt), .int(claim.expiry(product)), .text(claim.transactionId)],
                                        on: connection)
            case .insert(let new):
                guard let product else { return .failure(Refusal(code: .unknownProduct, message: "no product '\(claim.vendorProductId)'")) }
                status = new
                try await self.insert(claim, owner: post.profileId, status: new, product: product, connection)
            }
            _ = try await self.rows(Statements.priceAndAttribution, [.text(post.amount ?? product?.priceText), .text(post.currencyCode ?? product?.currencyCode),
                      .text(post.attribution?.placementId), .text(post.attribution?.abTestName), .text(post.attribution?.variationId),
                      .text(claim.transactionId)], on: connection)
            try await self.log(claim.transactionId, post.profileId, status.rawValue, "", request, connection)
            return .success(status)
        }
    }

    package func recordRestore(_ post: RestorePost, products: [String: StoreProduct], refusals: [String: Refusal],
                       policy: TransferPolicy, now: Int) async throws -> RestoreOutcome {
        try await serializable { connection in
            try await self.meet(post.profileId, identifiedAs: nil, now: now, connection)
            let movedBefore = try await self.transfers(of: post.eventId, .restore, connection)
            var restored: [(claim: StoreClaim, from: String?)] = [], refused: [(claim: StoreClaim, refusal: Refusal?)] = []
            for claim in post.claims {
                let existing = try await self.rows(Statements.restoredTransaction, [.text(claim.transactionId)], on: connection).first.map {
                    StorageRules.RestoredTransaction(productId: try $0["vendor_product_id"].decode(String.self),
                                                     owner: try $0["owner_profile_id"].decode(String.self))
                }
                var from: String?
                switch StorageRules.restore(claim, refusal: refusals[claim.transactionId], existing: existing, restorer: post.profileId,
                                            policy: policy, hasProduct: products[claim.vendorProductId] != nil) {
                case .refuse(let refusal):
                    try await self.log(claim.transactionId, post.profileId, SQLiteStorage.refused, refusal.code.rawValue, claim.text, connection)
                    refused.append((claim, refusal))
                    continue
                case .keep:
                    try await self.log(claim.transactionId, post.profileId, SQLiteStorage.refused, StorageRules.keptCode, claim.text, connection)
                    refused.append((claim, nil))
                    continue
                case .move(let other):
                    _ = try await self.rows(Statements.moveTransaction, [.text(post.profileId), .text(claim.transactionId)], on: connection)
                    if let other {
                        try await self.recordTransfer(Transfer(transactionId: claim.transactionId, vendorProductId: claim.vendorProductId,
                                                                     fromProfileId: other, toProfileId: post.profileId),
                                                      .restore, eventId: post.eventId, now: now, connection)
                    }
                    from = other ?? movedBefore.first(where: { $0.transactionId == claim.transactionId && Identity.same($0.toProfileId, post.profileId) })?.fromProfileId
                case .insert:
                    guard let product = products[claim.vendorProductId] else { continue }
                    try await self.insert(claim, owner: post.profileId, status: .verified, product: product, connection)
                }
                try await self.log(claim.transactionId, post.profileId, PurchaseStatus.verified.rawValue, "", claim.text, connection)
                restored.append((claim, from))
            }
            return RestoreOutcome(restored: restored, refused: refused)
        }
    }

    package func purchaseLog(profileId: String?) async throws -> [PurchaseLogEntry] {
        try await rows(Statements.purchaseLog(ofOneProfile: profileId != nil), profileId.map { [.text($0)] } ?? []).map {
            PurchaseLogEntry(request: try $0["request"].decode(String.self), status: try $0["status"].decode(String.self),
                             code: try $0["code"].decode(String.self))
        }
    }

    package func profileFacts(_ profileId: String) async throws -> ProfileFacts {
        let profile = try await rows(Statements.profile, [.text(profileId)]).first
        let grants = try await rows(Statements.ownedGrants, [.text(profileId)]).map {
            OwnedGrant(transactionId: try $0["transaction_id"].decode(String.self),
                       originalTransactionId: try $0["original_transaction_id"].decode(String.self),
                       vendorProductId: try $0["vendor_product_id"].decode(String.self), purchasedAt: try $0["purchased_at"].decode(Int.self),
                       expiresAt: try $0["expires_at"].decode(Int?.self), accessLevel: try $0["access_level"].decode(String?.self),
                       productType: try StoredText.productType(try $0["product_type"].decode(String.self)), store: StoreName(rawValue: try $0["store"].decode(String.self)),
                       environment: try StoredText.environment(try $0["environment"].decode(String.self)), ownershipType: try $0["ownership_type"].decode(String?.self),
                       offerType: try $0["offer_type"].decode(String?.self), offerId: try $0["offer_id"].decode(String?.self),
                       offerPaymentMode: try $0["offer_payment_mode"].decode(String?.self), priceAmount: try $0["price_amount"].decode(String?.self),
                       currencyCode: try $0["currency_code"].decode(String?.self))
        }
        var lifecycles: [String: LifecycleState] = [:]
        for row in try await rows(Statements.ownedLifecycles, [.text(profileId)]) {
            lifecycles[try row["original_transaction_id"].decode(String.self)] = try Self.lifecycle(row)
        }
        return ProfileFacts(known: profile != nil, customerUserId: try profile?["customer_user_id"].decode(String?.self),
                            grants: grants, lifecycles: lifecycles)
    }

    private func insert(_ claim: StoreClaim, owner: String, status: PurchaseStatus, product: StoreProduct, _ connection: PostgresConnection) async throws {
        _ = try await rows(Statements.insertTransaction, [.text(claim.transactionId), .text(claim.originalTransactionId), .text(claim.vendorProductId), .text(owner), .text(owner),
                  .text(status.rawValue), .text(claim.environment.rawValue), .text(claim.store.rawValue), .int(claim.purchasedAt),
                  .int(claim.expiry(product)), .text(product.accessLevel), .text(product.productType.rawValue),
                  .text(claim.signed?.ownershipType), .text(claim.signed?.offerType), .text(claim.signed?.offerId),
                  .text(claim.signed?.offerPaymentMode)], on: connection)
    }

    /// The backend has met this profile (a purchase, restore or identity named it);
    /// `customerUserId` from an identity only (`SQLiteStorage.meet` says why).
    package func meet(_ profileId: String, identifiedAs customerUserId: String?, now: Int, _ connection: PostgresConnection) async throws {
        _ = try await rows(Statements.meetProfile, [.text(profileId), .text(customerUserId), .int(customerUserId.map { _ in now })],
                           on: connection)
    }

    /// Each distinct outcome of a transaction for a profile once.
    private func log(_ transactionId: String, _ profileId: String, _ status: String, _ code: String, _ request: String,
                     _ connection: PostgresConnection) async throws {
        _ = try await rows(Statements.logPurchase, [.text(transactionId), .text(profileId), .text(status), .text(code), .text(request)], on: connection)
    }
}
