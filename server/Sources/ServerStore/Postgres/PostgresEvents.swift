import PaywireModel
import PostgresNIO
import ServerDomain

/// Records, results and offer nonces in PostgreSQL.
extension PostgresStorage {
    /// One statement: the records inserted (each once, whatever another replica stores at the
    /// same time), and the batch's row counted from what was new.
    package func storeEvents(_ records: [EventRecord], dropped: Int) async throws -> (accepted: Int, duplicates: Int) {
        var values: [SQLValue] = []
        values.reserveCapacity(records.count * 11 + 2)
        for record in records {
            values += [.text(record.eventId), .text(record.profileId), .text(record.name), .text(record.placementId),
                       .text(record.abTestName), .text(record.variationId), .int(record.revision), .int(record.shownAt), .bool(record.forced),
                       .bool(record.webPaywall), .text(record.text)]
        }
        values += [.int(records.count), .int(dropped)]
        let result = try await self.rows("""
            WITH inserted AS (\(Statements.insertEvents(count: records.count)) RETURNING 1)
            INSERT INTO event_batches (accepted, duplicates, dropped)
            SELECT count(*), ? - count(*), CASE WHEN count(*) > 0 THEN ? ELSE 0 END FROM inserted
            RETURNING accepted
            """, values)
        let accepted = try result.first?["accepted"].decode(Int.self) ?? 0
        return (accepted, records.count - accepted)
    }

    package func events(profileId: String?, name: String?) async throws -> [String] {
        let query = Statements.events(profileId: profileId, name: name)
        return try await rows(query.sql, query.values.map { .text($0) }).map { try $0["record"].decode(String.self) }
    }

    package func eventSummary() async throws -> EventSummary {
        let row = try await rows(Statements.eventSummary).first
        return EventSummary(stored: try row?["stored"].decode(Int.self) ?? 0, duplicates: try row?["duplicates"].decode(Int.self) ?? 0,
                            batches: try row?["batches"].decode(Int.self) ?? 0, droppedReported: try row?["dropped"].decode(Int.self) ?? 0)
    }

    package func recordOfferNonce(_ nonce: String, profileId: String, productId: String, offerId: String, at time: Int) async throws {
        _ = try await rows(Statements.recordOfferNonce, [.text(nonce), .text(profileId), .text(productId), .text(offerId), .int(time)])
    }

    package func resultFacts(placementId: String, holdouts: [ExperimentCell]) async throws -> ResultFacts {
        let exposures = try await rows(Statements.exposures, [.text(placementId)]).map { row in
            ExposureFact(abTestName: try row["ab_test_name"].decode(String.self), variationId: try row["variation_id"].decode(String.self),
                         profileId: try row["profile_id"].decode(String.self), forced: try row["forced"].decode(Bool.self),
                         firstShownAt: try row["first_shown_at"].decode(Int.self), unversioned: try row["unversioned"].decode(Int.self) == 1,
                         onWeb: try row["on_web"].decode(Int.self) == 1)
        }
        let sales = try await rows(Statements.sales, [.text(placementId)]).map(Self.sale)
        var holdoutSales: [ExperimentCell: [Sale]] = [:]
        for cell in holdouts {
            holdoutSales[cell] = try await rows(Statements.holdoutSales,
                                                [.text(placementId), .text(cell.abTestName), .text(cell.variationId)]).map(Self.sale)
        }
        return ResultFacts(exposures: exposures, sales: sales, holdoutSales: holdoutSales)
    }

    private static func sale(_ row: PostgresRandomAccessRow) throws -> Sale {
        let notified = try row["notified"].decode(String?.self)
        return Sale(abTestName: try row["ab_test_name"].decode(String?.self), variationId: try row["variation_id"].decode(String?.self),
                    purchaser: try row["purchaser_profile_id"].decode(String.self), amount: try row["price_amount"].decode(String?.self),
                    currency: try row["currency_code"].decode(String?.self),
                    productType: try StoredText.productType(try row["product_type"].decode(String.self)),
                    purchasedAt: try row["purchased_at"].decode(Int.self), expiresAt: try row["expires_at"].decode(Int?.self),
                    lifecycle: notified == nil ? nil : LifecycleState(
                        transactionId: try row["transaction_id"].decode(String.self),
                        vendorProductId: try row["vendor_product_id"].decode(String.self),
                        expiresAt: try row["l_expires_at"].decode(Int?.self), willRenew: try row["will_renew"].decode(Bool.self),
                        isInGracePeriod: try row["is_in_grace_period"].decode(Bool.self),
                        gracePeriodExpiresAt: try row["grace_period_expires_at"].decode(Int?.self),
                        isRefund: try row["is_refund"].decode(Bool.self)),
                    store: StoreName(rawValue: try row["store"].decode(String.self)),
                    environment: try StoredText.environment(try row["environment"].decode(String.self)),
                    owner: try row["owner_profile_id"].decode(String.self))
    }
}
