/// What experiment results count, as read from the store: each exposure (test, variation,
/// profile; repeats allowed) and each verified purchase attributed to the placement, with what
/// store notifications said of it.
struct ResultFacts: Sendable {
    let exposures: [(abTestName: String, variationId: String, profileId: String)]
    let sales: [Sale]

    /// The purchases of a placement with their lifecycles (both engines: only the placeholder differs).
    static func salesQuery(placeholder: String) -> String {
        """
        SELECT t.ab_test_name, t.variation_id, t.purchaser_profile_id, t.price_amount, t.currency_code, t.product_type,
            t.transaction_id, t.vendor_product_id, t.expires_at, l.original_transaction_id AS notified, l.expires_at AS l_expires_at,
            l.will_renew, l.is_in_grace_period, l.grace_period_expires_at, l.is_refund
        FROM transactions t LEFT JOIN lifecycles l ON l.original_transaction_id = t.original_transaction_id
        WHERE t.status = 'verified' AND t.placement_id = \(placeholder)
        """
    }
}
