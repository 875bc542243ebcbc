import PaywireModel
import PostgresNIO
import ServerDomain

/// Store notifications and profile data in PostgreSQL.
extension PostgresStorage {
    package func apply(_ notification: StoreNotification) async throws -> NotificationApplied {
        try await serializable { connection in
            if let seen = try await self.rows(Statements.seenNotification, [.text(notification.source.rawValue), .text(notification.notificationId)], on: connection).first {
                let owner = try seen["profile_id"].decode(String.self)
                return .duplicate(outcome: try StoredText.notificationOutcome(try seen["outcome"].decode(String.self)), profileId: owner.isEmpty ? nil : owner)
            }
            guard let originalTransactionId = notification.originalTransactionId else {
                _ = try await self.rows(Statements.insertNotification, [.text(notification.source.rawValue), .text(notification.notificationId),
                          .text(notification.event.storeType), .text(notification.event.subtype), .text(""), .text(""),
                          .text(NotificationOutcome.recorded.rawValue),
                          .text(notification.text)], on: connection)
                return .done(outcome: .recorded, profileId: nil, reason: StorageRules.unattached(notification))
            }
            guard let latest = try await self.rows(Statements.latestTransaction, [.text(originalTransactionId)], on: connection)
                .first.map({
                    StorageRules.LatestTransaction(owner: try $0["owner_profile_id"].decode(String.self),
                                                   transactionId: try $0["transaction_id"].decode(String.self),
                                                   vendorProductId: try $0["vendor_product_id"].decode(String.self),
                                                   expiresAt: try $0["expires_at"].decode(Int?.self),
                                                   productType: try StoredText.productType(try $0["product_type"].decode(String.self)))
                }) else { return .unknownTransaction }
            let stored = try await self.rows(Statements.lifecycle, [.text(originalTransactionId)], on: connection).first.map(Self.lifecycle)
            let decision = StorageRules.notification(notification, latest: latest, stored: stored)
            if let next = decision.save { try await self.save(next, originalTransactionId, connection) }
            _ = try await self.rows(Statements.insertNotification, [.text(notification.source.rawValue), .text(notification.notificationId), .text(notification.event.storeType),
                      .text(notification.event.subtype), .text(originalTransactionId), .text(latest.owner),
                      .text(decision.outcome.rawValue), .text(notification.text)], on: connection)
            return .done(outcome: decision.outcome, profileId: latest.owner, reason: decision.reason)
        }
    }

    package func notificationLog() async throws -> [NotificationLogEntry] {
        try await rows(Statements.notificationLog).map {
            NotificationLogEntry(source: try $0["source"].decode(String.self), notificationId: try $0["notification_id"].decode(String.self),
                                 type: try $0["type"].decode(String.self), subtype: try $0["subtype"].decode(String?.self),
                                 originalTransactionId: try $0["original_transaction_id"].decode(String.self),
                                 profileId: try $0["profile_id"].decode(String.self), outcome: try $0["outcome"].decode(String.self))
        }
    }

    /// The record first (its event_id unique), then the latest of its kind: a retry that lost
    /// its answer stores nothing twice, whichever replica it reaches.
    package func storeProfileData(_ post: ProfileDataRecord) async throws -> Bool {
        try await serializable { connection in
            guard try await !self.rows(Statements.recordProfileData, [.text(post.eventId), .text(post.profileId), .text(post.kind.rawValue)], on: connection).isEmpty else { return false }
            _ = try await self.rows(Statements.keepProfileData, [.text(post.profileId), .text(post.kind.rawValue), .text(post.source),
                      .text(String(decoding: post.body.encoded, as: UTF8.self))], on: connection)
            return true
        }
    }

    package func profileData(profileId: String) async throws -> [ProfileDataEntry] {
        try await rows(Statements.profileData, [.text(profileId)]).map {
            ProfileDataEntry(kind: try $0["kind"].decode(String.self), source: try $0["source"].decode(String.self),
                             body: try $0["body"].decode(String.self))
        }
    }

    package static func lifecycle(_ row: PostgresRandomAccessRow) throws -> LifecycleState {
        LifecycleState(
            transactionId: try row["transaction_id"].decode(String.self), vendorProductId: try row["vendor_product_id"].decode(String.self),
            expiresAt: try row["expires_at"].decode(Int?.self), renewedAt: try row["renewed_at"].decode(Int?.self),
            willRenew: try row["will_renew"].decode(Bool.self), isInGracePeriod: try row["is_in_grace_period"].decode(Bool.self),
            gracePeriodExpiresAt: try row["grace_period_expires_at"].decode(Int?.self),
            billingIssueDetectedAt: try row["billing_issue_detected_at"].decode(Int?.self),
            unsubscribedAt: try row["unsubscribed_at"].decode(Int?.self), cancellationReason: try StoredText.cancellationReason(try row["cancellation_reason"].decode(String?.self)),
            isRefund: try row["is_refund"].decode(Bool.self), refundedAt: try row["refunded_at"].decode(Int?.self),
            willRenewProductId: try row["will_renew_product_id"].decode(String?.self),
            replacedProductId: try row["replaced_product_id"].decode(String?.self),
            productChangedAt: try row["product_changed_at"].decode(Int?.self), replacedByUpgrade: try row["replaced_by_upgrade"].decode(Bool.self))
    }

    private func save(_ state: LifecycleState, _ originalTransactionId: String, _ connection: PostgresConnection) async throws {
        _ = try await rows(Statements.saveLifecycle, [.text(originalTransactionId), .text(state.transactionId), .text(state.vendorProductId), .int(state.expiresAt),
                  .int(state.renewedAt), .bool(state.willRenew), .bool(state.isInGracePeriod), .int(state.gracePeriodExpiresAt),
                  .int(state.billingIssueDetectedAt), .int(state.unsubscribedAt), .text(state.cancellationReason?.rawValue), .bool(state.isRefund),
                  .int(state.refundedAt), .text(state.willRenewProductId), .text(state.replacedProductId), .int(state.productChangedAt),
                  .bool(state.replacedByUpgrade)], on: connection)
    }
}
