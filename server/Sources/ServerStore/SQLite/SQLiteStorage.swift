import Foundation
import GRDB
import PaywireModel
import ServerDomain

/// The embedded engine: one SQLite file through GRDB, in WAL mode (readers never wait for the
/// writer; GRDB's synchronous NORMAL: a committed write survives the process being killed), or
/// a database in memory for development. One writer at a time, so every write transaction sees
/// and decides alone.
package final class SQLiteStorage: Storage {
    package let database: any DatabaseWriter
    /// When a migration was applied.
    package let clock: any ServerClock

    /// Opens (or creates) the file at `path`, or a database in memory. A new file is made 0600
    /// before SQLite opens it: it holds customer ids, and SQLite gives its -wal and -shm files
    /// the database file's mode.
    package init(path: String?, clock: any ServerClock) throws {
        if let path { try Self.createPrivately(path) }
        database = try path.map { try DatabasePool(path: $0) } ?? DatabaseQueue()
        self.clock = clock
    }

    private static func createPrivately(_ path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw StorageProblem("cannot create the database file \(path)")
        }
    }

    package func migrate() async throws {
        try await database.write { db in
            if try db.tableExists("grdb_migrations"), try !db.tableExists(Migration.table) {
                throw StorageProblem("this SQLite file was made by an earlier paywire-devserver; start with a new file")
            }
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(Migration.table) (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)")
        }
        let applied = try await database.read { db in try Int.fetchOne(db, sql: "SELECT MAX(version) FROM \(Migration.table)") ?? 0 }
        for migration in Migration.all where migration.version > applied {
            try await database.write { db in
                try db.execute(sql: migration.sqlite)
                try db.execute(sql: "INSERT INTO \(Migration.table) (version, name, applied_at) VALUES (?, ?, ?)",
                               arguments: [migration.version, migration.name, clock.nowMilliseconds()])
            }
        }
    }

    package func reset() async throws {
        try await database.write { db in
            for table in Migration.tables { try db.execute(sql: "DELETE FROM \(table)") }
        }
    }

    package func ping() async throws {
        _ = try await database.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    /// One prepared insert run per record (a statement of 100 rows' values measured slower in
    /// SQLite), then the batch's row, in one transaction.
    package func storeEvents(_ records: [EventRecord], dropped: Int) async throws -> (accepted: Int, duplicates: Int) {
        try await database.write { db in
            let insert = try db.cachedStatement(sql: Statements.insertEvents(count: 1))
            var accepted = 0
            for record in records {
                try insert.execute(arguments: [record.eventId, record.profileId, record.name, record.placementId, record.abTestName,
                                               record.variationId, record.revision, record.shownAt, record.forced, record.webPaywall, record.text])
                accepted += db.changesCount
            }
            try db.execute(sql: "INSERT INTO event_batches (accepted, duplicates, dropped) VALUES (?, ?, ?)",
                           arguments: [accepted, records.count - accepted, accepted > 0 ? dropped : 0])
            return (accepted, records.count - accepted)
        }
    }

    package func events(profileId: String?, name: String?) async throws -> [String] {
        let query = Statements.events(profileId: profileId, name: name)
        return try await database.read { db in try String.fetchAll(db, sql: query.sql, arguments: StatementArguments(query.values)) }
    }

    package func eventSummary() async throws -> EventSummary {
        try await database.read { db in
            let row = try Row.fetchOne(db, sql: Statements.eventSummary)
            return EventSummary(stored: row?["stored"] ?? 0, duplicates: row?["duplicates"] ?? 0, batches: row?["batches"] ?? 0,
                                droppedReported: row?["dropped"] ?? 0)
        }
    }

    package func recordOfferNonce(_ nonce: String, profileId: String, productId: String, offerId: String, at time: Int) async throws {
        try await database.write { db in
            try db.execute(sql: Statements.recordOfferNonce, arguments: [nonce, profileId, productId, offerId, time])
        }
    }

    package func resultFacts(placementId: String, holdouts: [ExperimentCell]) async throws -> ResultFacts {
        try await database.read { db in
            let exposures = try Row.fetchAll(db, sql: Statements.exposures, arguments: [placementId]).map { row in
                ExposureFact(abTestName: row["ab_test_name"], variationId: row["variation_id"], profileId: row["profile_id"],
                             forced: row["forced"], firstShownAt: try Self.required(row, "first_shown_at"),
                             unversioned: try Self.required(row, "unversioned") == 1, onWeb: try Self.required(row, "on_web") == 1)
            }
            let sales = try Row.fetchAll(db, sql: Statements.sales, arguments: [placementId]).map(Self.sale)
            var holdoutSales: [ExperimentCell: [Sale]] = [:]
            for cell in holdouts {
                holdoutSales[cell] = try Row.fetchAll(db, sql: Statements.holdoutSales,
                                                      arguments: [placementId, cell.abTestName, cell.variationId]).map(Self.sale)
            }
            return ResultFacts(exposures: exposures, sales: sales, holdoutSales: holdoutSales)
        }
    }

    private static func sale(_ row: Row) throws -> Sale {
        Sale(abTestName: row["ab_test_name"], variationId: row["variation_id"], purchaser: row["purchaser_profile_id"],
             amount: row["price_amount"], currency: row["currency_code"],
             productType: try StoredText.productType(row["product_type"]), purchasedAt: row["purchased_at"], expiresAt: row["expires_at"],
             lifecycle: (row["notified"] as String?).map { _ in
                 LifecycleState(transactionId: row["transaction_id"], vendorProductId: row["vendor_product_id"],
                                expiresAt: row["l_expires_at"], willRenew: row["will_renew"],
                                isInGracePeriod: row["is_in_grace_period"],
                                gracePeriodExpiresAt: row["grace_period_expires_at"], isRefund: row["is_refund"])
             }, store: StoreName(rawValue: row["store"]), environment: try StoredText.environment(row["environment"]),
             owner: row["owner_profile_id"])
    }

    /// A column the statement guarantees is not null (a null is a stored row this code did not write).
    private static func required(_ row: Row, _ column: String) throws -> Int {
        guard let value: Int = row[column] else { throw StorageProblem("\(column) is null") }
        return value
    }
}
