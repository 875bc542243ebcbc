/// The statements both engines run as they are on web purchases (Stripe); the records they
/// read and write are the domain's (`StripeLink`, `WebCheckout`, `WebCheckoutState`).
package enum WebPurchaseStatements {
    package static let link = "SELECT stripe_id, original_transaction_id, profile_id FROM stripe_links WHERE stripe_id = ?"
    /// A purchase's ids are linked once: the first owner stays (a redemption moves them all).
    package static let addLink = """
        INSERT INTO stripe_links (stripe_id, original_transaction_id, profile_id) VALUES (?, ?, ?) ON CONFLICT (stripe_id) DO NOTHING
        """
    /// A customer's profile is the one of its latest checkout.
    package static let linkCustomer = """
        INSERT INTO stripe_links (stripe_id, original_transaction_id, profile_id) VALUES (?, NULL, ?)
        ON CONFLICT (stripe_id) DO UPDATE SET profile_id = excluded.profile_id
        """
    package static let keepCheckout = """
        INSERT INTO web_purchases (checkout_session_id, original_transaction_id, holder_profile_id, redeemable, completed_at)
        VALUES (?, ?, ?, ?, ?) ON CONFLICT (checkout_session_id) DO NOTHING
        """
    package static let checkout = """
        SELECT holder_profile_id, redeemable, redeemed_by, token_sha256, token_expires_at FROM web_purchases WHERE checkout_session_id = ?
        """
    package static let issue = "UPDATE web_purchases SET token_sha256 = ?, token_expires_at = ? WHERE checkout_session_id = ?"
    package static let held = """
        SELECT checkout_session_id, holder_profile_id, token_expires_at, redeemed_by, original_transaction_id FROM web_purchases
        WHERE token_sha256 = ?
        """
    package static let redeemed = "UPDATE web_purchases SET redeemed_by = ?, redeemed_at = ? WHERE checkout_session_id = ?"
    /// to, from: a profile's purchases move (a held checkout's to the redeeming profile, an
    /// identified profile's to the customer's), and so do its Stripe ids, so later events find
    /// the new owner.
    package static let moveHeld = "UPDATE transactions SET owner_profile_id = ? WHERE owner_profile_id = ?"
    package static let moveLinks = "UPDATE stripe_links SET profile_id = ? WHERE profile_id = ?"
    /// to, from, original transaction id: one purchase moves (a web paywall visitor's checkout),
    /// with its own Stripe ids; the visitor's other purchases and its customer stay.
    package static let ownedOfPurchase = """
        SELECT transaction_id, vendor_product_id FROM transactions WHERE owner_profile_id = ? AND original_transaction_id = ?
        ORDER BY purchased_at, transaction_id
        """
    package static let movePurchase = "UPDATE transactions SET owner_profile_id = ? WHERE owner_profile_id = ? AND original_transaction_id = ?"
    package static let movePurchaseLinks = "UPDATE stripe_links SET profile_id = ? WHERE profile_id = ? AND original_transaction_id = ?"
}
