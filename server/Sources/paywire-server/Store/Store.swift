import Foundation
import GRDB

/// Everything the dev server keeps: analytics records, store transactions (from which grants
/// follow) and the profiles it has met, in SQLite through GRDB. In a file it is in WAL mode
/// (readers never wait for the writer) and survives restarts; without one it lives in memory. Every change is one transaction, so a
/// request that was acknowledged is stored, and one that failed left nothing behind.
final class Store: Sendable {
    let database: any DatabaseWriter

    init(path: String?) throws {
        if let path {
            // DatabasePool opens the file in WAL mode.
            database = try DatabasePool(path: path)
        } else {
            database = try DatabaseQueue()
        }
        try Self.migrator.migrate(database)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // Records in arrival order; event_id unique: storing is idempotent. The
            // paywall_shown columns are what experiment results count (the only index besides
            // event_id's: every index is paid for on each insert, and the /_dev reads by
            // profile scan).
            try db.execute(sql: """
                CREATE TABLE events (
                    arrival INTEGER PRIMARY KEY AUTOINCREMENT,
                    event_id TEXT NOT NULL UNIQUE,
                    profile_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    placement_id TEXT,
                    ab_test_name TEXT,
                    variation_id TEXT,
                    record TEXT NOT NULL);
                CREATE INDEX events_by_exposure ON events(placement_id, ab_test_name, variation_id, profile_id)
                    WHERE name = 'paywall_shown';
                CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
                """)
            // One row per store transaction. owner_profile_id holds access now (a restore
            // moves it); purchaser_profile_id bought it (attribution stays with them).
            try db.execute(sql: """
                CREATE TABLE transactions (
                    transaction_id TEXT PRIMARY KEY,
                    original_transaction_id TEXT NOT NULL,
                    vendor_product_id TEXT NOT NULL,
                    owner_profile_id TEXT NOT NULL,
                    purchaser_profile_id TEXT NOT NULL,
                    status TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    store TEXT NOT NULL,
                    purchased_at INTEGER NOT NULL,
                    expires_at INTEGER,
                    access_level TEXT NOT NULL,
                    is_subscription INTEGER NOT NULL,
                    price_amount TEXT,
                    currency_code TEXT,
                    placement_id TEXT,
                    ab_test_name TEXT,
                    variation_id TEXT);
                CREATE INDEX transactions_by_owner ON transactions(owner_profile_id);
                CREATE TABLE purchase_log (
                    arrival INTEGER PRIMARY KEY AUTOINCREMENT,
                    transaction_id TEXT NOT NULL,
                    profile_id TEXT NOT NULL,
                    status TEXT NOT NULL,
                    code TEXT NOT NULL DEFAULT '',
                    request TEXT NOT NULL,
                    UNIQUE (transaction_id, profile_id, status, code));
                CREATE TABLE profiles (profile_id TEXT PRIMARY KEY, customer_user_id TEXT);
                """)
        }
        // Product types: a consumable grants no access level (NULL), so the column loses its
        // NOT NULL; the table is rebuilt because SQLite cannot drop a constraint in place.
        migrator.registerMigration("v2-product-types") { db in
            try db.execute(sql: """
                CREATE TABLE transactions_v2 (
                    transaction_id TEXT PRIMARY KEY,
                    original_transaction_id TEXT NOT NULL,
                    vendor_product_id TEXT NOT NULL,
                    owner_profile_id TEXT NOT NULL,
                    purchaser_profile_id TEXT NOT NULL,
                    status TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    store TEXT NOT NULL,
                    purchased_at INTEGER NOT NULL,
                    expires_at INTEGER,
                    access_level TEXT,
                    is_subscription INTEGER NOT NULL,
                    price_amount TEXT,
                    currency_code TEXT,
                    placement_id TEXT,
                    ab_test_name TEXT,
                    variation_id TEXT,
                    product_type TEXT NOT NULL);
                INSERT INTO transactions_v2 SELECT *, CASE is_subscription WHEN 1 THEN 'autorenewable' ELSE 'non_consumable' END
                    FROM transactions;
                DROP TABLE transactions;
                ALTER TABLE transactions_v2 RENAME TO transactions;
                CREATE INDEX transactions_by_owner ON transactions(owner_profile_id);
                """)
        }
        registerNotificationMigration(&migrator)
        // What the device says about a profile besides purchases (ProfileData).
        migrator.registerMigration("v4-profile-data") { db in try Store.migrateProfileData(db) }
        // Offer nonces: each signature's nonce is unique across replicas by its key.
        migrator.registerMigration("v5-offer-nonces") { db in
            try db.execute(sql: """
                CREATE TABLE offer_nonces (nonce TEXT PRIMARY KEY, profile_id TEXT NOT NULL, vendor_product_id TEXT NOT NULL,
                    offer_id TEXT NOT NULL, signed_at INTEGER NOT NULL);
                """)
        }
        return migrator
    }

    /// Forgets every event, transaction, profile and notification (`POST /_dev/reset`).
    func reset() async throws {
        try await database.write { db in
            for table in ["events", "counters", "transactions", "purchase_log", "profiles", "lifecycles", "notifications",
                          "profile_records", "profile_data", "offer_nonces"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
        }
    }

    /// Records an offer signature's nonce; a nonce used before fails the write (its key).
    func recordOfferNonce(_ nonce: String, profileId: String, productId: String, offerId: String, at time: Int) async throws {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO offer_nonces (nonce, profile_id, vendor_product_id, offer_id, signed_at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [nonce, profileId, productId, offerId, time])
        }
    }

    /// Adds to a named counter inside a write.
    static func add(_ amount: Int, to counter: String, _ db: Database) throws {
        guard amount != 0 else { return }
        try db.execute(sql: """
            INSERT INTO counters (name, value) VALUES (?, ?)
            ON CONFLICT(name) DO UPDATE SET value = value + excluded.value
            """, arguments: [counter, amount])
    }

    static func counter(_ name: String, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT value FROM counters WHERE name = ?", arguments: [name]) ?? 0
    }
}
