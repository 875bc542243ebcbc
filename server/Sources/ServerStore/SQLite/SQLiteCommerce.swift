import GRDB
import PaywireModel
import ServerDomain

/// Store transactions in SQLite: purchases, restores, the purchase log, and what a profile owns.
extension SQLiteStorage {
    package func recordPurchase(_ post: PurchasePost, product: StoreProduct?, refusal: Refusal?, request: String, now: Int) async throws -> Result<PurchaseStatus, Refusal> {
        try await database.write { db in
            try Self.meet(post.profileId, identifiedAs: nil, now: now, db)
            let claim = post.claim
            let existing = try Row.fetchOne(db, sql: Statements.knownTransaction, arguments: [claim.transactionId]).map {
                StorageRules.KnownTransaction(owner: $0["owner_profile_id"], purchaser: $0["purchaser_profile_id"],
                                              productId: $0["vendor_product_id"], status: try StoredText.purchaseStatus($0["status"]))
            }
            let status: PurchaseStatus
            switch StorageRules.purchase(post, hasProduct: product != nil, refusal: refusal, existing: existing) {
            case .refuse(let refusal):
                try Self.log(claim.transactionId, post.profileId, Self.refused, refusal.code.rawValue, request, db)
                return .failure(refusal)
            case .unchanged(let stored):
                return .success(stored)
            case .verifyPending:
                status = .verified
                try db.execute(sql: Statements.verifyPending, arguments: [claim.purchasedAt, claim.expiry(product), claim.transactionId])
            case .insert(let new):
                guard let product else { return .failure(Refusal(code: .unknownProduct, message: "no product '\(claim.vendorProductId)'")) }
                status = new
                try Self.insert(claim, owner: post.profileId, status: new, product: product, db)
            }
            try db.execute(sql: Statements.priceAndAttribution, arguments: [post.amount ?? product?.priceText, post.currencyCode ?? product?.currencyCode, post.attribution?.placementId,
                                 post.attribution?.abTestName, post.attribution?.variationId, claim.transactionId])
            try Self.log(claim.transactionId, post.profileId, status.rawValue, "", request, db)
            return .success(status)
        }
    }

    package func recordRestore(_ post: RestorePost, products: [String: StoreProduct], refusals: [String: Refusal],
                       policy: TransferPolicy, now: Int) async throws -> RestoreOutcome {
        try await database.write { db in
            try Self.meet(post.profileId, identifiedAs: nil, now: now, db)
            let movedBefore = try Self.transfers(of: post.eventId, .restore, db)
            var restored: [(claim: StoreClaim, from: String?)] = [], refused: [(claim: StoreClaim, refusal: Refusal?)] = []
            for claim in post.claims {
                let existing = try Row.fetchOne(db, sql: Statements.restoredTransaction, arguments: [claim.transactionId]).map {
                    StorageRules.RestoredTransaction(productId: $0["vendor_product_id"], owner: $0["owner_profile_id"])
                }
                var from: String?
                switch StorageRules.restore(claim, refusal: refusals[claim.transactionId], existing: existing, restorer: post.profileId,
                                            policy: policy, hasProduct: products[claim.vendorProductId] != nil) {
                case .refuse(let refusal):
                    try Self.log(claim.transactionId, post.profileId, Self.refused, refusal.code.rawValue, claim.text, db)
                    refused.append((claim, refusal))
                    continue
                case .keep:
                    try Self.log(claim.transactionId, post.profileId, Self.refused, StorageRules.keptCode, claim.text, db)
                    refused.append((claim, nil))
                    continue
                case .move(let other):
                    try db.execute(sql: Statements.moveTransaction, arguments: [post.profileId, claim.transactionId])
                    if let other {
                        try Self.recordTransfer(Transfer(transactionId: claim.transactionId, vendorProductId: claim.vendorProductId,
                                                               fromProfileId: other, toProfileId: post.profileId),
                                                .restore, eventId: post.eventId, now: now, db)
                    }
                    from = other ?? movedBefore.first(where: { $0.transactionId == claim.transactionId && Identity.same($0.toProfileId, post.profileId) })?.fromProfileId
                case .insert:
                    guard let product = products[claim.vendorProductId] else { continue }
                    try Self.insert(claim, owner: post.profileId, status: .verified, product: product, db)
                }
                try Self.log(claim.transactionId, post.profileId, PurchaseStatus.verified.rawValue, "", claim.text, db)
                restored.append((claim, from))
            }
            return RestoreOutcome(restored: restored, refused: refused)
        }
    }

    package func purchaseLog(profileId: String?) async throws -> [PurchaseLogEntry] {
        try await database.read { db in
            try Row.fetchAll(db, sql: Statements.purchaseLog(ofOneProfile: profileId != nil), arguments: StatementArguments(profileId.map { [$0] } ?? [])).map {
                PurchaseLogEntry(request: $0["request"], status: $0["status"], code: $0["code"])
            }
        }
    }

    package func profileFacts(_ profileId: String) async throws -> ProfileFacts {
        try await database.read { db in
            let row = try Row.fetchOne(db, sql: Statements.profile, arguments: [profileId])
            let grants = try Row.fetchAll(db, sql: Statements.ownedGrants, arguments: [profileId]).map {
                OwnedGrant(transactionId: $0["transaction_id"], originalTransactionId: $0["original_transaction_id"],
                           vendorProductId: $0["vendor_product_id"], purchasedAt: $0["purchased_at"], expiresAt: $0["expires_at"],
                           accessLevel: $0["access_level"], productType: try StoredText.productType($0["product_type"]), store: StoreName(rawValue: $0["store"]),
                           environment: try StoredText.environment($0["environment"]), ownershipType: $0["ownership_type"], offerType: $0["offer_type"], offerId: $0["offer_id"],
                           offerPaymentMode: $0["offer_payment_mode"], priceAmount: $0["price_amount"], currencyCode: $0["currency_code"])
            }
            var lifecycles: [String: LifecycleState] = [:]
            for row in try Row.fetchAll(db, sql: Statements.ownedLifecycles, arguments: [profileId]) {
                lifecycles[row["original_transaction_id"]] = try Self.lifecycle(row)
            }
            return ProfileFacts(known: row != nil, customerUserId: row?["customer_user_id"], grants: grants, lifecycles: lifecycles)
        }
    }

    package static func insert(_ claim: StoreClaim, owner: String, status: PurchaseStatus, product: StoreProduct, _ db: Database) throws {
        try db.execute(sql: Statements.insertTransaction, arguments: [claim.transactionId, claim.originalTransactionId, claim.vendorProductId, owner, owner,
                             status.rawValue, claim.environment.rawValue, claim.store.rawValue, claim.purchasedAt, claim.expiry(product),
                             product.accessLevel, product.productType.rawValue, claim.signed?.ownershipType, claim.signed?.offerType,
                             claim.signed?.offerId, claim.signed?.offerPaymentMode])
    }

    /// The backend has met this profile (a purchase, restore or identity named it), at `now`.
    /// `customerUserId` comes from an identity only (`identify`, proven when the server checks
    /// identities): the customer's profile is the first to hold it, so one a claim named would
    /// hand the customer to whoever sent that claim.
    package static func meet(_ profileId: String, identifiedAs customerUserId: String?, now: Int, _ db: Database) throws {
        try db.execute(sql: Statements.meetProfile, arguments: [profileId, customerUserId, customerUserId.map { _ in now }])
    }

    /// The purchase log's status of a refusal (its code says why).
    package static let refused = "refused"

    /// Each distinct outcome of a transaction for a profile once.
    package static func log(_ transactionId: String, _ profileId: String, _ status: String, _ code: String, _ request: String, _ db: Database) throws {
        try db.execute(sql: Statements.logPurchase, arguments: [transactionId, profileId, status, code, request])
    }
}
