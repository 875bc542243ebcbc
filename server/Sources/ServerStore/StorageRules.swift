import PaywireModel
import ServerDomain

/// What a write decides from what it read, the same for every engine: each engine reads the
/// rows, asks these rules, and writes what they say, all in one transaction. Pure.
package enum StorageRules {
    /// A stored transaction as a purchase decision needs it.
    package struct KnownTransaction: Sendable {
        package let owner: String
        package let purchaser: String
        package let productId: String
        package let status: PurchaseStatus
    }

    package enum PurchaseDecision: Equatable {
        /// Record the refusal (the purchase log), change nothing else.
        case refuse(Refusal)
        /// Answer the stored status; nothing is written (the same post again).
        case unchanged(status: PurchaseStatus)
        /// A pending transaction posted as purchased: it becomes verified (price, attribution, expiry anew).
        case verifyPending
        /// A transaction never seen: store it with this status.
        case insert(status: PurchaseStatus)
    }

    /// Idempotent on (transaction id, state); a transaction already known for another profile
    /// (neither its owner nor its purchaser) or another product is a conflict.
    package static func purchase(_ post: PurchasePost, hasProduct: Bool, refusal: Refusal?, existing: KnownTransaction?) -> PurchaseDecision {
        if let refusal { return .refuse(refusal) }
        guard hasProduct else { return .refuse(Refusal(code: .unknownProduct, message: "product '\(post.claim.vendorProductId)' is not in the catalog")) }
        let status = PurchaseStatus(post.state)
        guard let existing else { return .insert(status: status) }
        guard existing.productId == post.claim.vendorProductId,
              Identity.same(post.profileId, existing.owner) || Identity.same(post.profileId, existing.purchaser) else {
            return .refuse(Refusal(code: .transactionConflict,
                                   message: "transaction '\(post.claim.transactionId)' is already known for another profile or product"))
        }
        guard existing.status == .pending && status == .verified else { return .unchanged(status: existing.status) }
        return .verifyPending
    }

    package enum RestoreDecision: Equatable {
        case refuse(Refusal)
        /// Another profile holds it and the policy keeps it there: refused
        /// `belongs_to_another_profile`, nothing moves.
        case keep
        /// A known transaction: access moves to the restoring profile (and it is verified);
        /// `from` is the other profile it comes from (nil: the restoring profile held it).
        case move(from: String?)
        /// A transaction never seen: store it, owned by the restoring profile.
        case insert
    }

    /// A stored transaction as a restore needs it.
    package struct RestoredTransaction: Sendable {
        package let productId: String
        package let owner: String
    }

    /// One restored claim: refused as verification found, a conflict when the transaction is
    /// known for another product; one another profile holds moves or stays as the policy says;
    /// else moved (verified) or stored.
    package static func restore(_ claim: StoreClaim, refusal: Refusal?, existing: RestoredTransaction?, restorer: String,
                        policy: TransferPolicy, hasProduct: Bool) -> RestoreDecision {
        if let refusal { return .refuse(refusal) }
        if let existing {
            guard existing.productId == claim.vendorProductId else {
                return .refuse(Refusal(code: .transactionConflict,
                                       message: "transaction '\(claim.transactionId)' is already known for product '\(existing.productId)'"))
            }
            guard !Identity.same(existing.owner, restorer) else { return .move(from: nil) }
            return policy == .transfer ? .move(from: existing.owner) : .keep
        }
        guard hasProduct else { return .refuse(Refusal(code: .unknownProduct, message: "product '\(claim.vendorProductId)' is not in the catalog")) }
        return .insert
    }

    /// The purchase log's code of a restored transaction another profile keeps.
    package static let keptCode = RefusalCode.belongsToAnotherProfile.rawValue

    /// The refusal of a restored transaction another profile keeps; it names no profile.
    package static func keptMessage(_ claim: StoreClaim) -> String {
        "transaction '\(claim.transactionId)' belongs to another profile, and this server keeps purchases where they are (--transfer-policy keep)"
    }

    /// The newest verified transaction of an original transaction, as a notification needs it.
    package struct LatestTransaction: Sendable {
        package let owner: String
        package let transactionId: String
        package let vendorProductId: String
        package let expiresAt: Int?
        package let productType: ProductType
    }

    /// Why a notification without a transaction is only recorded (under no profile, stored
    /// with an empty original transaction id and profile id).
    package static func unattached(_ notification: StoreNotification) -> String {
        notification.event.storeType == "TEST" || notification.event.storeType == PlayNotification.testType
            ? "\(notification.event.storeType) received: the store reaches this server; nothing changes"
            : "\(notification.event.storeType) carries no transaction: recorded, no profile changes"
    }

    /// What a notification does, given its transaction and the lifecycle stored for it (nil
    /// before the first notification: the lifecycle the purchase alone gives).
    ///
    /// The store's first word on a subscription is kept even when it only confirms what the
    /// purchase said: from then on the grant speaks for the store (it carries `is_active`, and
    /// every lifecycle member is what the store last reported), so the notification is
    /// `applied`. A later one that changes nothing is `recorded`.
    package static func notification(_ notification: StoreNotification, latest: LatestTransaction, stored: LifecycleState?)
        -> (save: LifecycleState?, outcome: NotificationOutcome, reason: String?) {
        let current = stored ?? LifecycleState(transactionId: latest.transactionId, vendorProductId: latest.vendorProductId,
                                               expiresAt: latest.expiresAt, willRenew: latest.productType == .autorenewable)
        switch Lifecycle.apply(current, notification.event) {
        case .update(let next): return (next, .applied, nil)
        case .confirm(let same) where stored == nil:
            return (same, .applied, "the store confirms the purchase's lifecycle: the grant now says what the store reports")
        case .confirm: return (nil, .recorded, "the grant already says this")
        case .record(let why): return (nil, .recorded, why)
        }
    }
}

