/// The statements of transfers and the customer's profile, which both engines run as they are.
package enum TransferStatements {
    /// transaction_id, vendor_product_id, from_profile_id, to_profile_id, reason, event_id, transferred_at.
    package static let record = """
        INSERT INTO transfers (transaction_id, vendor_product_id, from_profile_id, to_profile_id, reason, event_id, transferred_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """
    /// What one request (event_id, reason) moved, in order.
    package static let ofRequest = """
        SELECT transaction_id, vendor_product_id, from_profile_id, to_profile_id FROM transfers
        WHERE event_id = ? AND reason = ? ORDER BY arrival
        """
    /// The profile that held a customer user id first (the customer's profile). Only an
    /// identity gives a profile one (`meet`); a database kept before claims stopped binding
    /// customers may hold bindings a claim made (docs/operations/security.md, F1). Rows kept
    /// before version 9 have no time: earliest.
    package static let firstHolder = """
        SELECT profile_id FROM profiles WHERE customer_user_id = ? ORDER BY COALESCE(identified_at, 0), profile_id LIMIT 1
        """
    /// A profile's transactions, verified or pending, in purchase order (what an identity moves,
    /// by WebPurchaseStatements.moveHeld, its Stripe ids by moveLinks).
    package static let owned = """
        SELECT transaction_id, vendor_product_id FROM transactions WHERE owner_profile_id = ? ORDER BY purchased_at, transaction_id
        """
    /// A profile's transfers in and out, oldest first (profile_id twice).
    package static let ofProfile = """
        SELECT transaction_id, vendor_product_id, from_profile_id, to_profile_id, reason, transferred_at FROM transfers
        WHERE from_profile_id = ? OR to_profile_id = ? ORDER BY arrival
        """
    /// Every transaction a profile holds or bought, any status (profile_id twice).
    package static let viewTransactions = """
        SELECT transaction_id, vendor_product_id, store, status, environment, purchased_at, expires_at, price_amount, currency_code,
            owner_profile_id, purchaser_profile_id, placement_id, ab_test_name, variation_id
        FROM transactions WHERE owner_profile_id = ? OR purchaser_profile_id = ? ORDER BY purchased_at, transaction_id
        """
    /// Web purchases a profile holds for redemption or redeemed (profile_id twice).
    package static let viewWebPurchases = """
        SELECT checkout_session_id, original_transaction_id, holder_profile_id, redeemable, completed_at, token_expires_at,
            redeemed_by, redeemed_at FROM web_purchases WHERE holder_profile_id = ? OR redeemed_by = ? ORDER BY completed_at, checkout_session_id
        """
}
