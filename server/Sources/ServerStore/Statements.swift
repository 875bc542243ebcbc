/// The statements both engines run as they are (`?` placeholders: GRDB binds them, and
/// PostgresStorage numbers them), so each is written once. What differs between the engines (a
/// batch of records in one statement, the schema's types) is written by each engine.
package enum Statements {
    package static let knownTransaction = """
        SELECT owner_profile_id, purchaser_profile_id, vendor_product_id, status FROM transactions WHERE transaction_id = ?
        """
    package static let verifyPending = "UPDATE transactions SET status = 'verified', purchased_at = ?, expires_at = ? WHERE transaction_id = ?"
    /// price_amount, currency_code, placement_id, ab_test_name, variation_id, transaction_id.
    package static let priceAndAttribution = """
        UPDATE transactions SET price_amount = ?, currency_code = ?, placement_id = ?, ab_test_name = ?, variation_id = ?
        WHERE transaction_id = ?
        """
    package static let restoredTransaction = "SELECT vendor_product_id, owner_profile_id FROM transactions WHERE transaction_id = ?"
    package static let moveTransaction = "UPDATE transactions SET owner_profile_id = ?, status = 'verified' WHERE transaction_id = ?"
    /// transaction_id, original_transaction_id, vendor_product_id, owner (twice), status, environment, store,
    /// purchased_at, expires_at, access_level, product_type.
    package static let insertTransaction = """
        INSERT INTO transactions (transaction_id, original_transaction_id, vendor_product_id, owner_profile_id,
            purchaser_profile_id, status, environment, store, purchased_at, expires_at, access_level, product_type,
            ownership_type, offer_type, offer_id, offer_payment_mode)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    /// The backend has met this profile (a purchase, restore or identity named it):
    /// profile_id, customer_user_id (an identity's only, never a claim's), the time (ms) it holds
    /// that customer user id from (NULL without one). A new customer user id restarts the time;
    /// the same one keeps it.
    package static let meetProfile = """
        INSERT INTO profiles (profile_id, customer_user_id, identified_at) VALUES (?, ?, ?)
        ON CONFLICT (profile_id) DO UPDATE SET customer_user_id = COALESCE(excluded.customer_user_id, profiles.customer_user_id),
            identified_at = CASE WHEN excluded.customer_user_id IS NULL OR excluded.customer_user_id = profiles.customer_user_id
                THEN profiles.identified_at ELSE excluded.identified_at END
        """
    /// Each distinct outcome of a transaction for a profile once.
    package static let logPurchase = """
        INSERT INTO purchase_log (transaction_id, profile_id, status, code, request) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (transaction_id, profile_id, status, code) DO NOTHING
        """
    package static func purchaseLog(ofOneProfile: Bool) -> String {
        "SELECT request, status, code FROM purchase_log \(ofOneProfile ? "WHERE profile_id = ?" : "") ORDER BY arrival"
    }

    package static let profile = "SELECT customer_user_id FROM profiles WHERE profile_id = ?"
    package static let insertConsumptionRequest = """
        INSERT INTO consumption_requests (notification_id, original_transaction_id, transaction_id, profile_id, received_at, sendable, consumption)
        VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (notification_id) DO NOTHING
        """
    package static func consumptionRequests(ofOneProfile: Bool) -> String {
        "SELECT * FROM consumption_requests \(ofOneProfile ? "WHERE profile_id = ?" : "") ORDER BY received_at, notification_id"
    }
    package static let ownedGrants = """
        SELECT transaction_id, original_transaction_id, vendor_product_id, purchased_at, expires_at, access_level,
            product_type, environment, store, ownership_type, offer_type, offer_id, offer_payment_mode, price_amount, currency_code
        FROM transactions WHERE owner_profile_id = ? AND status = 'verified' ORDER BY purchased_at, transaction_id
        """
    package static let ownedLifecycles = """
        SELECT * FROM lifecycles WHERE original_transaction_id IN
            (SELECT original_transaction_id FROM transactions WHERE owner_profile_id = ? AND status = 'verified')
        """

    package static let seenNotification = "SELECT outcome, profile_id FROM notifications WHERE source = ? AND notification_id = ?"
    package static let latestTransaction = """
        SELECT owner_profile_id, transaction_id, vendor_product_id, expires_at, product_type FROM transactions
        WHERE original_transaction_id = ? AND status = 'verified' ORDER BY purchased_at DESC, transaction_id DESC LIMIT 1
        """
    package static let lifecycle = "SELECT * FROM lifecycles WHERE original_transaction_id = ?"
    package static let insertNotification = """
        INSERT INTO notifications (source, notification_id, type, subtype, original_transaction_id, profile_id, outcome, body)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    package static let notificationLog = "SELECT * FROM notifications ORDER BY arrival"
    /// original_transaction_id, then the state's members in LifecycleState's order.
    package static let saveLifecycle = """
        INSERT INTO lifecycles (original_transaction_id, transaction_id, vendor_product_id, expires_at, renewed_at,
            will_renew, is_in_grace_period, grace_period_expires_at, billing_issue_detected_at, unsubscribed_at,
            cancellation_reason, is_refund, refunded_at, will_renew_product_id, replaced_product_id, product_changed_at,
            replaced_by_upgrade)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (original_transaction_id) DO UPDATE SET transaction_id = excluded.transaction_id,
            vendor_product_id = excluded.vendor_product_id, expires_at = excluded.expires_at, renewed_at = excluded.renewed_at,
            will_renew = excluded.will_renew, is_in_grace_period = excluded.is_in_grace_period,
            grace_period_expires_at = excluded.grace_period_expires_at, billing_issue_detected_at = excluded.billing_issue_detected_at,
            unsubscribed_at = excluded.unsubscribed_at, cancellation_reason = excluded.cancellation_reason,
            is_refund = excluded.is_refund, refunded_at = excluded.refunded_at,
            will_renew_product_id = excluded.will_renew_product_id, replaced_product_id = excluded.replaced_product_id,
            product_changed_at = excluded.product_changed_at, replaced_by_upgrade = excluded.replaced_by_upgrade
        """

    /// A row only when the event_id is new.
    package static let recordProfileData = "INSERT INTO profile_records (event_id, profile_id, kind) VALUES (?, ?, ?) ON CONFLICT (event_id) DO NOTHING RETURNING 1"
    package static let keepProfileData = """
        INSERT INTO profile_data (profile_id, kind, source, body) VALUES (?, ?, ?, ?)
        ON CONFLICT (profile_id, kind, source) DO UPDATE SET body = excluded.body
        """
    package static let profileData = "SELECT kind, source, body FROM profile_data WHERE profile_id = ? ORDER BY kind, source"

    /// stored, duplicates, batches, dropped: `/_dev/events/summary`.
    package static let eventSummary = """
        SELECT CAST((SELECT COUNT(*) FROM events) AS BIGINT) AS stored, CAST(COALESCE(SUM(duplicates), 0) AS BIGINT) AS duplicates,
            CAST(COUNT(*) AS BIGINT) AS batches, CAST(COALESCE(SUM(dropped), 0) AS BIGINT) AS dropped FROM event_batches
        """
    package static let recordOfferNonce = "INSERT INTO offer_nonces (nonce, profile_id, vendor_product_id, offer_id, signed_at) VALUES (?, ?, ?, ?, ?)"
    /// Each profile's exposures of a placement by cell, forced ones apart, with the first one's time.
    package static let exposures = """
        SELECT ab_test_name, variation_id, profile_id, forced, MIN(shown_at) AS first_shown_at,
            MIN(CASE WHEN revision IS NULL THEN 1 ELSE 0 END) AS unversioned,
            MAX(CASE WHEN web_paywall THEN 1 ELSE 0 END) AS on_web FROM events
        WHERE name = 'paywall_shown' AND placement_id = ? GROUP BY ab_test_name, variation_id, profile_id, forced
        """
    private static let saleColumns = """
        SELECT t.ab_test_name, t.variation_id, t.purchaser_profile_id, t.price_amount, t.currency_code, t.product_type,
            t.transaction_id, t.vendor_product_id, t.purchased_at, t.expires_at, t.store, t.environment, t.owner_profile_id,
            l.original_transaction_id AS notified,
            l.expires_at AS l_expires_at, l.will_renew, l.is_in_grace_period, l.grace_period_expires_at, l.is_refund
        FROM transactions t LEFT JOIN lifecycles l ON l.original_transaction_id = t.original_transaction_id
        """
    /// The purchases attributed to a placement with their lifecycles.
    package static let sales = saleColumns + " WHERE t.status = 'verified' AND t.placement_id = ?"
    /// Every verified purchase, wherever it was made, of the profiles a holdout cell (placement_id,
    /// ab_test_name, variation_id) exposed without a debug override.
    package static let holdoutSales = saleColumns + """
         WHERE t.status = 'verified' AND t.purchaser_profile_id IN (SELECT profile_id FROM events
            WHERE name = 'paywall_shown' AND placement_id = ? AND ab_test_name = ? AND variation_id = ? AND NOT forced)
        """

    /// A batch of `count` records in one statement, each stored unless its event_id is (ten
    /// values a record: event_id, profile_id, name, placement_id, ab_test_name, variation_id,
    /// revision, shown_at, forced, web_paywall, record).
    package static func insertEvents(count: Int) -> String {
        "INSERT INTO events (event_id, profile_id, name, placement_id, ab_test_name, variation_id, revision, shown_at, forced, web_paywall, record) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: count).joined(separator: ", ") + " ON CONFLICT (event_id) DO NOTHING"
    }

    /// Stored records' texts in arrival order, of a profile and/or a name when given; the values to bind.
    package static func events(profileId: String?, name: String?) -> (sql: String, values: [String]) {
        var conditions: [String] = [], values: [String] = []
        if let profileId {
            conditions.append("profile_id = ?")
            values.append(profileId)
        }
        if let name {
            conditions.append("name = ?")
            values.append(name)
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return ("SELECT record FROM events \(filter) ORDER BY arrival", values)
    }
}
