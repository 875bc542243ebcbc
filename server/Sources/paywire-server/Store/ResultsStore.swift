import GRDB

/// What experiment results count, as read from the store: each exposure (test, variation,
/// profile; repeats allowed) and each verified purchase attributed to the placement.
struct ResultFacts: Sendable {
    let exposures: [(abTestName: String, variationId: String, profileId: String)]
    let sales: [Sale]
}

extension Store {
    func resultFacts(placementId: String) async throws -> ResultFacts {
        try await database.read { db in
            let exposures = try Row.fetchAll(db, sql: """
                SELECT DISTINCT ab_test_name, variation_id, profile_id FROM events
                WHERE name = 'paywall_shown' AND placement_id = ?
                """, arguments: [placementId]).map { ($0["ab_test_name"] as String, $0["variation_id"] as String, $0["profile_id"] as String) }
            let sales = try Row.fetchAll(db, sql: """
                SELECT t.ab_test_name, t.variation_id, t.purchaser_profile_id, t.price_amount, t.currency_code, t.product_type,
                    t.transaction_id, t.vendor_product_id, t.expires_at, l.original_transaction_id AS notified, l.expires_at AS l_expires_at,
                    l.will_renew, l.is_in_grace_period, l.grace_period_expires_at, l.is_refund
                FROM transactions t LEFT JOIN lifecycles l ON l.original_transaction_id = t.original_transaction_id
                WHERE t.status = 'verified' AND t.placement_id = ?
                """, arguments: [placementId]).map(Sale.init)
            return ResultFacts(exposures: exposures, sales: sales)
        }
    }
}

extension Sale {
    init(_ row: Row) {
        let productType: String = row["product_type"]
        self.init(abTestName: row["ab_test_name"], variationId: row["variation_id"], purchaser: row["purchaser_profile_id"],
                  amount: row["price_amount"], currency: row["currency_code"],
                  isSubscription: productType == "autorenewable" || productType == "non_renewing", expiresAt: row["expires_at"],
                  lifecycle: (row["notified"] as String?).map { _ in
                      LifecycleState(transactionId: row["transaction_id"], vendorProductId: row["vendor_product_id"],
                                     expiresAt: row["l_expires_at"], willRenew: row["will_renew"],
                                     isInGracePeriod: row["is_in_grace_period"], gracePeriodExpiresAt: row["grace_period_expires_at"],
                                     isRefund: row["is_refund"])
                  })
    }
}
