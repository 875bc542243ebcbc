/// The schema's versions, in order, each as SQLite and as PostgreSQL write it. An engine applies
/// those above the highest version in its `paywire_migrations` table, each in one transaction
/// with its row; replicas starting together take a lock first (PostgreSQL: an advisory lock),
/// so one migrates and the others find it done. A version, once released, never changes: a
/// change to the schema is a new version at the end.
package struct Migration: Sendable {
    package let version: Int
    package let name: String
    package let sqlite: String
    package let postgres: String

    package static let table = "paywire_migrations"

    package static let all: [Migration] = [
        // Records in arrival order; event_id unique: storing is idempotent. The paywall_shown
        // columns are what experiment results count (the only index besides event_id's: every
        // index is paid for on each insert). One row per batch rather than shared counters, so
        // replicas storing batches at once never wait on one another's row.
        Migration(version: 1, name: "events", sqlite: """
            CREATE TABLE events (
                arrival INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, profile_id TEXT NOT NULL,
                name TEXT NOT NULL, placement_id TEXT, ab_test_name TEXT, variation_id TEXT, record TEXT NOT NULL);
            CREATE INDEX events_by_exposure ON events(placement_id, ab_test_name, variation_id, profile_id) WHERE name = 'paywall_shown';
            CREATE TABLE event_batches (
                id INTEGER PRIMARY KEY AUTOINCREMENT, accepted INTEGER NOT NULL, duplicates INTEGER NOT NULL, dropped INTEGER NOT NULL);
            """, postgres: """
            CREATE TABLE events (
                arrival BIGSERIAL PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, profile_id TEXT NOT NULL,
                name TEXT NOT NULL, placement_id TEXT, ab_test_name TEXT, variation_id TEXT, record TEXT NOT NULL);
            CREATE INDEX events_by_exposure ON events(placement_id, ab_test_name, variation_id, profile_id) WHERE name = 'paywall_shown';
            CREATE TABLE event_batches (
                id BIGSERIAL PRIMARY KEY, accepted INTEGER NOT NULL, duplicates INTEGER NOT NULL, dropped BIGINT NOT NULL);
            """),
        // One row per store transaction: owner_profile_id holds access now (a restore moves it),
        // purchaser_profile_id bought it (attribution stays with them). access_level NULL: the
        // product grants none (a consumable).
        Migration(version: 2, name: "transactions", sqlite: """
            CREATE TABLE transactions (
                transaction_id TEXT PRIMARY KEY, original_transaction_id TEXT NOT NULL, vendor_product_id TEXT NOT NULL,
                owner_profile_id TEXT NOT NULL, purchaser_profile_id TEXT NOT NULL, status TEXT NOT NULL, environment TEXT NOT NULL,
                store TEXT NOT NULL, purchased_at INTEGER NOT NULL, expires_at INTEGER, access_level TEXT,
                product_type TEXT NOT NULL, price_amount TEXT, currency_code TEXT,
                placement_id TEXT, ab_test_name TEXT, variation_id TEXT);
            CREATE INDEX transactions_by_owner ON transactions(owner_profile_id);
            CREATE INDEX transactions_by_original ON transactions(original_transaction_id);
            CREATE TABLE purchase_log (
                arrival INTEGER PRIMARY KEY AUTOINCREMENT, transaction_id TEXT NOT NULL, profile_id TEXT NOT NULL,
                status TEXT NOT NULL, code TEXT NOT NULL DEFAULT '', request TEXT NOT NULL,
                UNIQUE (transaction_id, profile_id, status, code));
            CREATE TABLE profiles (profile_id TEXT PRIMARY KEY, customer_user_id TEXT);
            """, postgres: """
            CREATE TABLE transactions (
                transaction_id TEXT PRIMARY KEY, original_transaction_id TEXT NOT NULL, vendor_product_id TEXT NOT NULL,
                owner_profile_id TEXT NOT NULL, purchaser_profile_id TEXT NOT NULL, status TEXT NOT NULL, environment TEXT NOT NULL,
                store TEXT NOT NULL, purchased_at BIGINT NOT NULL, expires_at BIGINT, access_level TEXT,
                product_type TEXT NOT NULL, price_amount TEXT, currency_code TEXT,
                placement_id TEXT, ab_test_name TEXT, variation_id TEXT);
            CREATE INDEX transactions_by_owner ON transactions(owner_profile_id);
            CREATE INDEX transactions_by_original ON transactions(original_transaction_id);
            CREATE TABLE purchase_log (
                arrival BIGSERIAL PRIMARY KEY, transaction_id TEXT NOT NULL, profile_id TEXT NOT NULL,
                status TEXT NOT NULL, code TEXT NOT NULL DEFAULT '', request TEXT NOT NULL,
                UNIQUE (transaction_id, profile_id, status, code));
            CREATE TABLE profiles (profile_id TEXT PRIMARY KEY, customer_user_id TEXT);
            """),
        // Store notifications, unique per source and id, and the lifecycle they leave per
        // original transaction.
        Migration(version: 3, name: "notifications", sqlite: """
            CREATE TABLE lifecycles (
                original_transaction_id TEXT PRIMARY KEY, transaction_id TEXT NOT NULL, vendor_product_id TEXT NOT NULL,
                expires_at INTEGER, renewed_at INTEGER, will_renew INTEGER NOT NULL, is_in_grace_period INTEGER NOT NULL,
                grace_period_expires_at INTEGER, billing_issue_detected_at INTEGER, unsubscribed_at INTEGER,
                cancellation_reason TEXT, is_refund INTEGER NOT NULL, refunded_at INTEGER);
            CREATE TABLE notifications (
                arrival INTEGER PRIMARY KEY AUTOINCREMENT, source TEXT NOT NULL, notification_id TEXT NOT NULL, type TEXT NOT NULL,
                subtype TEXT, original_transaction_id TEXT NOT NULL, profile_id TEXT NOT NULL, outcome TEXT NOT NULL, body TEXT NOT NULL,
                UNIQUE (source, notification_id));
            """, postgres: """
            CREATE TABLE lifecycles (
                original_transaction_id TEXT PRIMARY KEY, transaction_id TEXT NOT NULL, vendor_product_id TEXT NOT NULL,
                expires_at BIGINT, renewed_at BIGINT, will_renew BOOLEAN NOT NULL, is_in_grace_period BOOLEAN NOT NULL,
                grace_period_expires_at BIGINT, billing_issue_detected_at BIGINT, unsubscribed_at BIGINT,
                cancellation_reason TEXT, is_refund BOOLEAN NOT NULL, refunded_at BIGINT);
            CREATE TABLE notifications (
                arrival BIGSERIAL PRIMARY KEY, source TEXT NOT NULL, notification_id TEXT NOT NULL, type TEXT NOT NULL,
                subtype TEXT, original_transaction_id TEXT NOT NULL, profile_id TEXT NOT NULL, outcome TEXT NOT NULL, body TEXT NOT NULL,
                UNIQUE (source, notification_id));
            """),
        // What the device says about a profile besides purchases: each request once by event_id,
        // the latest per (profile, kind, source) kept.
        Migration(version: 4, name: "profile-data", sqlite: """
            CREATE TABLE profile_records (event_id TEXT PRIMARY KEY, profile_id TEXT NOT NULL, kind TEXT NOT NULL);
            CREATE TABLE profile_data (profile_id TEXT NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, body TEXT NOT NULL,
                PRIMARY KEY (profile_id, kind, source));
            """, postgres: """
            CREATE TABLE profile_records (event_id TEXT PRIMARY KEY, profile_id TEXT NOT NULL, kind TEXT NOT NULL);
            CREATE TABLE profile_data (profile_id TEXT NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, body TEXT NOT NULL,
                PRIMARY KEY (profile_id, kind, source));
            """),
        // Each offer signature's nonce, unique across replicas.
        Migration(version: 5, name: "offer-nonces", sqlite: """
            CREATE TABLE offer_nonces (nonce TEXT PRIMARY KEY, profile_id TEXT NOT NULL, vendor_product_id TEXT NOT NULL,
                offer_id TEXT NOT NULL, signed_at INTEGER NOT NULL);
            """, postgres: """
            CREATE TABLE offer_nonces (nonce TEXT PRIMARY KEY, profile_id TEXT NOT NULL, vendor_product_id TEXT NOT NULL,
                offer_id TEXT NOT NULL, signed_at BIGINT NOT NULL);
            """),
        // What results need of an exposure besides its cell: when it was made (the record's
        // created_at: a holdout's purchasers bought at or after their first exposure) and
        // whether a debug override forced it (left out of results). Filled for paywall_shown
        // only, like the cell's columns; records stored before are read back from their text.
        // The index covers both, so results still read only the index.
        Migration(version: 6, name: "exposure-time-and-forced", sqlite: """
            ALTER TABLE events ADD COLUMN shown_at INTEGER;
            ALTER TABLE events ADD COLUMN forced INTEGER NOT NULL DEFAULT 0;
            UPDATE events SET shown_at = json_extract(record, '$.created_at'),
                forced = COALESCE(json_extract(record, '$.params.forced') = 1, 0) WHERE name = 'paywall_shown';
            DROP INDEX events_by_exposure;
            CREATE INDEX events_by_exposure ON events(placement_id, ab_test_name, variation_id, profile_id, forced, shown_at)
                WHERE name = 'paywall_shown';
            """, postgres: """
            ALTER TABLE events ADD COLUMN shown_at BIGINT;
            ALTER TABLE events ADD COLUMN forced BOOLEAN NOT NULL DEFAULT FALSE;
            UPDATE events SET shown_at = (record::jsonb ->> 'created_at')::BIGINT,
                forced = COALESCE((record::jsonb -> 'params' -> 'forced') = 'true'::jsonb, FALSE) WHERE name = 'paywall_shown';
            DROP INDEX events_by_exposure;
            CREATE INDEX events_by_exposure ON events(placement_id, ab_test_name, variation_id, profile_id, forced, shown_at)
                WHERE name = 'paywall_shown';
            """),
        // What a verified StoreKit 2 transaction says beyond its ids and dates: who owns the
        // access (purchased, family_shared) and the offer it was bought with; and the answers
        // built for the App Store's consumption requests, one per notification; a plan change
        // in a subscription's lifecycle (the product renewed into, the product replaced).
        Migration(version: 7, name: "app-store", sqlite: """
            ALTER TABLE transactions ADD COLUMN ownership_type TEXT;
            ALTER TABLE transactions ADD COLUMN offer_type TEXT;
            ALTER TABLE transactions ADD COLUMN offer_id TEXT;
            ALTER TABLE transactions ADD COLUMN offer_payment_mode TEXT;
            ALTER TABLE lifecycles ADD COLUMN will_renew_product_id TEXT;
            ALTER TABLE lifecycles ADD COLUMN replaced_product_id TEXT;
            ALTER TABLE lifecycles ADD COLUMN product_changed_at INTEGER;
            ALTER TABLE lifecycles ADD COLUMN replaced_by_upgrade INTEGER NOT NULL DEFAULT 0;
            CREATE TABLE consumption_requests (
                notification_id TEXT PRIMARY KEY, original_transaction_id TEXT NOT NULL, transaction_id TEXT,
                profile_id TEXT NOT NULL, received_at INTEGER NOT NULL, sendable INTEGER NOT NULL, consumption TEXT NOT NULL);
            """, postgres: """
            ALTER TABLE transactions ADD COLUMN ownership_type TEXT;
            ALTER TABLE transactions ADD COLUMN offer_type TEXT;
            ALTER TABLE transactions ADD COLUMN offer_id TEXT;
            ALTER TABLE transactions ADD COLUMN offer_payment_mode TEXT;
            ALTER TABLE lifecycles ADD COLUMN will_renew_product_id TEXT;
            ALTER TABLE lifecycles ADD COLUMN replaced_product_id TEXT;
            ALTER TABLE lifecycles ADD COLUMN product_changed_at BIGINT;
            ALTER TABLE lifecycles ADD COLUMN replaced_by_upgrade BOOLEAN NOT NULL DEFAULT FALSE;
            CREATE TABLE consumption_requests (
                notification_id TEXT PRIMARY KEY, original_transaction_id TEXT NOT NULL, transaction_id TEXT,
                profile_id TEXT NOT NULL, received_at BIGINT NOT NULL, sendable BOOLEAN NOT NULL, consumption TEXT NOT NULL);
            """),
        // Web purchases (Stripe): which profile and purchase a Stripe id (customer,
        // subscription, payment intent, invoice, checkout session) belongs to, and each completed
        // checkout with its redemption link, kept as the token's SHA-256 only.
        Migration(version: 8, name: "web-purchases", sqlite: """
            CREATE TABLE stripe_links (stripe_id TEXT PRIMARY KEY, original_transaction_id TEXT, profile_id TEXT NOT NULL);
            CREATE INDEX stripe_links_by_profile ON stripe_links(profile_id);
            CREATE TABLE web_purchases (
                checkout_session_id TEXT PRIMARY KEY, original_transaction_id TEXT NOT NULL, holder_profile_id TEXT NOT NULL,
                redeemable INTEGER NOT NULL, completed_at INTEGER NOT NULL, token_sha256 TEXT UNIQUE, token_expires_at INTEGER,
                redeemed_by TEXT, redeemed_at INTEGER);
            """, postgres: """
            CREATE TABLE stripe_links (stripe_id TEXT PRIMARY KEY, original_transaction_id TEXT, profile_id TEXT NOT NULL);
            CREATE INDEX stripe_links_by_profile ON stripe_links(profile_id);
            CREATE TABLE web_purchases (
                checkout_session_id TEXT PRIMARY KEY, original_transaction_id TEXT NOT NULL, holder_profile_id TEXT NOT NULL,
                redeemable BOOLEAN NOT NULL, completed_at BIGINT NOT NULL, token_sha256 TEXT UNIQUE, token_expires_at BIGINT,
                redeemed_by TEXT, redeemed_at BIGINT);
            """),
        // Purchases that moved between profiles (a restore or an identity under
        // --transfer-policy transfer, a web purchase's redemption): which, from whom, to whom,
        // when, why, and the request that moved them (a retry answers the same). When a profile
        // first held its customer user id (the customer's profile is the one that held it
        // first; NULL, before this version, counts as earliest), and the indexes its lookup,
        // the profile view and the holdout results read by.
        Migration(version: 9, name: "transfers", sqlite: """
            CREATE TABLE transfers (
                arrival INTEGER PRIMARY KEY AUTOINCREMENT, transaction_id TEXT NOT NULL, vendor_product_id TEXT NOT NULL,
                from_profile_id TEXT NOT NULL, to_profile_id TEXT NOT NULL, reason TEXT NOT NULL, event_id TEXT NOT NULL,
                transferred_at INTEGER NOT NULL);
            CREATE INDEX transfers_by_from ON transfers(from_profile_id);
            CREATE INDEX transfers_by_to ON transfers(to_profile_id);
            CREATE INDEX transfers_by_event ON transfers(event_id);
            CREATE INDEX transactions_by_purchaser ON transactions(purchaser_profile_id);
            ALTER TABLE profiles ADD COLUMN identified_at INTEGER;
            CREATE INDEX profiles_by_customer ON profiles(customer_user_id);
            """, postgres: """
            CREATE TABLE transfers (
                arrival BIGSERIAL PRIMARY KEY, transaction_id TEXT NOT NULL, vendor_product_id TEXT NOT NULL,
                from_profile_id TEXT NOT NULL, to_profile_id TEXT NOT NULL, reason TEXT NOT NULL, event_id TEXT NOT NULL,
                transferred_at BIGINT NOT NULL);
            CREATE INDEX transfers_by_from ON transfers(from_profile_id);
            CREATE INDEX transfers_by_to ON transfers(to_profile_id);
            CREATE INDEX transfers_by_event ON transfers(event_id);
            CREATE INDEX transactions_by_purchaser ON transactions(purchaser_profile_id);
            ALTER TABLE profiles ADD COLUMN identified_at BIGINT;
            CREATE INDEX profiles_by_customer ON profiles(customer_user_id);
            """),
        // An exposure's placement revision, NULL when the device did not know it (a paywall from
        // a vendor file): results count such exposures apart. Rows kept before this version
        // take theirs from the record they kept.
        Migration(version: 10, name: "exposure-revision", sqlite: """
            ALTER TABLE events ADD COLUMN revision INTEGER;
            UPDATE events SET revision = json_extract(record, '$.params.revision') WHERE name = 'paywall_shown';
            """, postgres: """
            ALTER TABLE events ADD COLUMN revision BIGINT;
            UPDATE events SET revision = (record::jsonb #>> '{params,revision}')::bigint WHERE name = 'paywall_shown';
            """),
        // Operators signed in to the dashboard: the digest of each session's cookie, whose key
        // it was (by id) and when it ends; in the database, so every replica knows them.
        Migration(version: 11, name: "operator-sessions", sqlite: """
            CREATE TABLE operator_sessions (
                digest TEXT PRIMARY KEY, key_id TEXT NOT NULL, started_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
            """, postgres: """
            CREATE TABLE operator_sessions (
                digest TEXT PRIMARY KEY, key_id TEXT NOT NULL, started_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
            """),
        // What operators did to customers' data: which key (its id), what, about whom, when.
        Migration(version: 12, name: "audit-records", sqlite: """
            CREATE TABLE audit_records (
                arrival INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, key_id TEXT NOT NULL, action TEXT NOT NULL,
                subject TEXT NOT NULL, status INTEGER NOT NULL);
            """, postgres: """
            CREATE TABLE audit_records (
                arrival BIGSERIAL PRIMARY KEY, at BIGINT NOT NULL, key_id TEXT NOT NULL, action TEXT NOT NULL,
                subject TEXT NOT NULL, status INTEGER NOT NULL);
            """),
        // Profiles' credentials (docs/operations/security.md): each as the SHA-256 of the token
        // the device was handed once, the profile it opens, when it was issued and when a
        // request first carried it (NULL: pending; a profile with no used credential is
        // issued a new one by its next request).
        Migration(version: 13, name: "profile-credentials", sqlite: """
            CREATE TABLE profile_credentials (
                digest TEXT PRIMARY KEY, profile_id TEXT NOT NULL, issued_at INTEGER NOT NULL, used_at INTEGER);
            CREATE INDEX profile_credentials_by_profile ON profile_credentials(profile_id);
            """, postgres: """
            CREATE TABLE profile_credentials (
                digest TEXT PRIMARY KEY, profile_id TEXT NOT NULL, issued_at BIGINT NOT NULL, used_at BIGINT);
            CREATE INDEX profile_credentials_by_profile ON profile_credentials(profile_id);
            """),
        // An exposure the server's web paywall recorded itself (its SDK is the server's, not a
        // device's): results count it apart from apps', whatever platform an app reports.
        Migration(version: 14, name: "web-paywall-exposures", sqlite: """
            ALTER TABLE events ADD COLUMN web_paywall INTEGER NOT NULL DEFAULT 0;
            UPDATE events SET web_paywall = 1
                WHERE name = 'paywall_shown' AND json_extract(record, '$.sdk.version') = 'paywire-server-web/1';
            """, postgres: """
            ALTER TABLE events ADD COLUMN web_paywall BOOLEAN NOT NULL DEFAULT FALSE;
            UPDATE events SET web_paywall = TRUE
                WHERE name = 'paywall_shown' AND (record::json -> 'sdk' ->> 'version') = 'paywire-server-web/1';
            """),
        // A session is bound to its key's secret, not only its id (OperatorSession.binding): a
        // key given a new secret under the same id ends its sessions. Sessions from before
        // have no binding and end too (their operators sign in again).
        Migration(version: 15, name: "operator-sessions-bound-to-their-key", sqlite: """
            ALTER TABLE operator_sessions ADD COLUMN key_binding TEXT NOT NULL DEFAULT '';
            """, postgres: """
            ALTER TABLE operator_sessions ADD COLUMN key_binding TEXT NOT NULL DEFAULT '';
            """),
    ]

    /// Every table the migrations make, children first (what a reset empties).
    package static let tables = ["events", "event_batches", "purchase_log", "transactions", "profiles", "lifecycles", "notifications",
                         "profile_records", "profile_data", "offer_nonces", "consumption_requests", "stripe_links", "web_purchases", "transfers",
                         "operator_sessions", "audit_records", "profile_credentials"]
}
