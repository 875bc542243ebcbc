import GRDB
import PaywireModel
import ServerDomain

/// Store notifications and profile data in SQLite.
extension SQLiteStorage {
    package func apply(_ notification: StoreNotification) async throws -> NotificationApplied {
        try await database.write { db in
            if let seen = try Row.fetchOne(db, sql: Statements.seenNotification, arguments: [notification.source.rawValue, notification.notificationId]) {
                let owner: String = seen["profile_id"]
                return .duplicate(outcome: try StoredText.notificationOutcome(seen["outcome"]), profileId: owner.isEmpty ? nil : owner)
            }
            guard let originalTransactionId = notification.originalTransactionId else {
                try db.execute(sql: Statements.insertNotification, arguments: [notification.source.rawValue, notification.notificationId,
                                     notification.event.storeType, notification.event.subtype, "", "", NotificationOutcome.recorded.rawValue,
                                     notification.text])
                return .done(outcome: .recorded, profileId: nil, reason: StorageRules.unattached(notification))
            }
            guard let latest = try Row.fetchOne(db, sql: Statements.latestTransaction, arguments: [originalTransactionId]).map({
                    StorageRules.LatestTransaction(owner: $0["owner_profile_id"], transactionId: $0["transaction_id"],
                                                   vendorProductId: $0["vendor_product_id"], expiresAt: $0["expires_at"],
                                                   productType: try StoredText.productType($0["product_type"]))
                }) else { return .unknownTransaction }
            let stored = try Row.fetchOne(db, sql: Statements.lifecycle, arguments: [originalTransactionId]).map { try Self.lifecycle($0) }
            let decision = StorageRules.notification(notification, latest: latest, stored: stored)
            if let next = decision.save { try Self.save(next, originalTransactionId, db) }
            try db.execute(sql: Statements.insertNotification, arguments: [notification.source.rawValue, notification.notificationId, notification.event.storeType,
                                 notification.event.subtype, originalTransactionId, latest.owner, decision.outcome.rawValue,
                                 notification.text])
            return .done(outcome: decision.outcome, profileId: latest.owner, reason: decision.reason)
        }
    }

    package func notificationLog() async throws -> [NotificationLogEntry] {
        try await database.read { db in
            try Row.fetchAll(db, sql: Statements.notificationLog).map {
                NotificationLogEntry(source: $0["source"], notificationId: $0["notification_id"], type: $0["type"], subtype: $0["subtype"],
                                     originalTransactionId: $0["original_transaction_id"], profileId: $0["profile_id"],
                                     outcome: $0["outcome"])
            }
        }
    }

    package func storeProfileData(_ post: ProfileDataRecord) async throws -> Bool {
        try await database.write { db in
            guard try Row.fetchOne(db, sql: Statements.recordProfileData, arguments: [post.eventId, post.profileId, post.kind.rawValue]) != nil else {
                return false
            }
            try db.execute(sql: Statements.keepProfileData, arguments: [post.profileId, post.kind.rawValue, post.source, String(decoding: post.body.encoded, as: UTF8.self)])
            return true
        }
    }

    package func profileData(profileId: String) async throws -> [ProfileDataEntry] {
        try await database.read { db in
            try Row.fetchAll(db, sql: Statements.profileData, arguments: [profileId]).map { ProfileDataEntry(kind: $0["kind"], source: $0["source"], body: $0["body"]) }
        }
    }

    package static func lifecycle(_ row: Row) throws -> LifecycleState {
        LifecycleState(
            transactionId: row["transaction_id"], vendorProductId: row["vendor_product_id"], expiresAt: row["expires_at"],
            renewedAt: row["renewed_at"], willRenew: row["will_renew"], isInGracePeriod: row["is_in_grace_period"],
            gracePeriodExpiresAt: row["grace_period_expires_at"], billingIssueDetectedAt: row["billing_issue_detected_at"],
            unsubscribedAt: row["unsubscribed_at"], cancellationReason: try StoredText.cancellationReason(row["cancellation_reason"]), isRefund: row["is_refund"],
            refundedAt: row["refunded_at"], willRenewProductId: row["will_renew_product_id"], replacedProductId: row["replaced_product_id"],
            productChangedAt: row["product_changed_at"], replacedByUpgrade: row["replaced_by_upgrade"])
    }

    private static func save(_ state: LifecycleState, _ originalTransactionId: String, _ db: Database) throws {
        try db.execute(sql: Statements.saveLifecycle, arguments: [originalTransactionId, state.transactionId, state.vendorProductId, state.expiresAt, state.renewedAt,
                             state.willRenew, state.isInGracePeriod, state.gracePeriodExpiresAt, state.billingIssueDetectedAt,
                             state.unsubscribedAt, state.cancellationReason?.rawValue, state.isRefund, state.refundedAt,
                             state.willRenewProductId, state.replacedProductId, state.productChangedAt, state.replacedByUpgrade])
    }
}
