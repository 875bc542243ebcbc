import GRDB
import PaywireModel
import PaywireWire

/// A checked notification, store-neutral, ready to apply.
struct StoreNotification: Sendable {
    /// `app_store`, `play_store` or `test`: ids are unique within a source.
    let source: String
    /// The notification UUID (App Store, test store) or the Pub/Sub messageId (Play).
    let notificationId: String
    let originalTransactionId: String
    let event: LifecycleEvent
    /// The body as received, kept for `/_dev/notifications`.
    let text: String
}

/// What applying a notification came to.
enum NotificationOutcome: Sendable {
    /// The grant changed (`applied`) or the notification was only recorded (`recorded`).
    case done(outcome: String, profileId: String, reason: String?)
    /// Seen before under this id: nothing changed this time.
    case duplicate(outcome: String, profileId: String)
    /// No verified transaction has this original_transaction_id: nothing stored, so the
    /// store's retry lands once the device has posted the purchase.
    case unknownTransaction
}

extension Store {
    /// Notifications and the lifecycle they leave, per original transaction id.
    static func registerNotificationMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-notifications") { db in
            try db.execute(sql: """
                CREATE TABLE lifecycles (
                    original_transaction_id TEXT PRIMARY KEY,
                    transaction_id TEXT NOT NULL,
                    vendor_product_id TEXT NOT NULL,
                    expires_at INTEGER,
                    renewed_at INTEGER,
                    will_renew INTEGER NOT NULL,
                    is_in_grace_period INTEGER NOT NULL,
                    grace_period_expires_at INTEGER,
                    billing_issue_detected_at INTEGER,
                    unsubscribed_at INTEGER,
                    cancellation_reason TEXT,
                    is_refund INTEGER NOT NULL,
                    refunded_at INTEGER);
                CREATE TABLE notifications (
                    arrival INTEGER PRIMARY KEY AUTOINCREMENT,
                    source TEXT NOT NULL,
                    notification_id TEXT NOT NULL,
                    type TEXT NOT NULL,
                    subtype TEXT,
                    original_transaction_id TEXT NOT NULL,
                    profile_id TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    body TEXT NOT NULL,
                    UNIQUE (source, notification_id));
                CREATE INDEX transactions_by_original ON transactions(original_transaction_id);
                """)
        }
    }

    /// Applies a notification in one write: replay check, owner, current state, the rule, the
    /// new state and the record together, so a failure leaves nothing half done.
    func apply(_ notification: StoreNotification) async throws -> NotificationOutcome {
        try await database.write { db in
            if let seen = try Row.fetchOne(db, sql: "SELECT outcome, profile_id FROM notifications WHERE source = ? AND notification_id = ?",
                                           arguments: [notification.source, notification.notificationId]) {
                return .duplicate(outcome: seen["outcome"], profileId: seen["profile_id"])
            }
            guard let latest = try Row.fetchOne(db, sql: """
                SELECT owner_profile_id, transaction_id, vendor_product_id, expires_at, product_type FROM transactions
                WHERE original_transaction_id = ? AND status = 'verified' ORDER BY purchased_at DESC, transaction_id DESC LIMIT 1
                """, arguments: [notification.originalTransactionId]) else { return .unknownTransaction }
            let profileId: String = latest["owner_profile_id"]
            let current = try Self.lifecycle(notification.originalTransactionId, db) ?? LifecycleState(
                transactionId: latest["transaction_id"], vendorProductId: latest["vendor_product_id"], expiresAt: latest["expires_at"],
                willRenew: latest["product_type"] as String == "autorenewable")
            let outcome: String, reason: String?
            switch Lifecycle.apply(current, notification.event) {
            case .update(let next):
                try Self.save(next, notification.originalTransactionId, db)
                (outcome, reason) = ("applied", nil)
            case .record(let why):
                (outcome, reason) = ("recorded", why)
            }
            try db.execute(sql: """
                INSERT INTO notifications (source, notification_id, type, subtype, original_transaction_id, profile_id, outcome, body)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [notification.source, notification.notificationId, notification.event.storeType,
                                 notification.event.subtype, notification.originalTransactionId, profileId, outcome, notification.text])
            return .done(outcome: outcome, profileId: profileId, reason: reason)
        }
    }

    /// `/_dev/notifications`: every notification applied or recorded, in arrival order.
    func notificationLog() async throws -> JSONValue {
        try await database.read { db in
            .array(try Row.fetchAll(db, sql: "SELECT * FROM notifications ORDER BY arrival").map { row in
                .object([
                    ("source", .string(row["source"])), ("notification_id", .string(row["notification_id"])),
                    ("type", .string(row["type"])), ("subtype", (row["subtype"] as String?).map { .string($0) } ?? .null),
                    ("original_transaction_id", .string(row["original_transaction_id"])),
                    ("profile_id", .string(row["profile_id"])), ("outcome", .string(row["outcome"])),
                ])
            })
        }
    }

    /// The lifecycles of the transactions a profile owns, by original transaction id.
    static func lifecycles(owner profileId: String, _ db: Database) throws -> [String: LifecycleState] {
        var states: [String: LifecycleState] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT * FROM lifecycles WHERE original_transaction_id IN
                (SELECT original_transaction_id FROM transactions WHERE owner_profile_id = ? AND status = 'verified')
            """, arguments: [profileId]) {
            states[row["original_transaction_id"]] = state(row)
        }
        return states
    }

    static func lifecycle(_ originalTransactionId: String, _ db: Database) throws -> LifecycleState? {
        try Row.fetchOne(db, sql: "SELECT * FROM lifecycles WHERE original_transaction_id = ?", arguments: [originalTransactionId]).map(state)
    }

    private static func state(_ row: Row) -> LifecycleState {
        LifecycleState(
            transactionId: row["transaction_id"], vendorProductId: row["vendor_product_id"], expiresAt: row["expires_at"],
            renewedAt: row["renewed_at"], willRenew: row["will_renew"], isInGracePeriod: row["is_in_grace_period"],
            gracePeriodExpiresAt: row["grace_period_expires_at"], billingIssueDetectedAt: row["billing_issue_detected_at"],
            unsubscribedAt: row["unsubscribed_at"], cancellationReason: row["cancellation_reason"], isRefund: row["is_refund"],
            refundedAt: row["refunded_at"])
    }

    private static func save(_ state: LifecycleState, _ originalTransactionId: String, _ db: Database) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO lifecycles (original_transaction_id, transaction_id, vendor_product_id, expires_at, renewed_at,
                will_renew, is_in_grace_period, grace_period_expires_at, billing_issue_detected_at, unsubscribed_at,
                cancellation_reason, is_refund, refunded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [originalTransactionId, state.transactionId, state.vendorProductId, state.expiresAt, state.renewedAt,
                             state.willRenew, state.isInGracePeriod, state.gracePeriodExpiresAt, state.billingIssueDetectedAt,
                             state.unsubscribedAt, state.cancellationReason, state.isRefund, state.refundedAt])
    }
}
