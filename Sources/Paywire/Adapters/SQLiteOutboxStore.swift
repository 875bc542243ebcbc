import CSQLite
import PaywireCore
import PaywireModel
import PaywireWire

/// The outbox's durable queue: `<storage_dir>/outbox.sqlite`, SQLite in WAL mode with
/// `synchronous=NORMAL`. A record is committed before the call that made it returns, so a
/// process crash (kill -9) loses nothing; a power loss may lose the last commits but never
/// corrupts the file. The `storage_dir` lock gives it one client at a time.
final class SQLiteOutboxStore: OutboxStore {
    static let fileName = "outbox.sqlite"
    private let database: SQLiteConnection
    let installId: String
    /// The events lane's next seq (kept in `meta`, since delivered records leave the table).
    private var nextEventSeq: Int
    /// The purchases lane's: only a queue position, so the table alone says it.
    private var nextPurchaseSeq: Int
    /// Records held per lane, counted once at open and kept since.
    private var laneCounts: [OutboxLane: Int]
    private(set) var totalBytes: Int
    private(set) var droppedCount: Int

    /// Opens the queue under `directory`, creating it (with a new install id) the first time.
    init(directory: String) throws(WireError) {
        database = try SQLiteConnection(path: "\(directory)/\(SQLiteOutboxStore.fileName)")
        try database.execute("""
            PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS records (seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE,
                kind INTEGER NOT NULL, size INTEGER NOT NULL, body BLOB NOT NULL);
            CREATE INDEX IF NOT EXISTS records_by_kind ON records (kind, seq);
            """)
        try SQLiteOutboxStore.migrate(database)
        var meta: [String: String] = [:]
        try database.run("SELECT key, value FROM meta") { row in meta[row.text(0)] = row.text(1) }
        if let id = meta["install_id"] {
            installId = id
        } else {
            installId = SystemRandom().uuidV4()
            try database.run("INSERT INTO meta (key, value) VALUES ('install_id', ?)", [.text(installId)])
        }
        var summary = (events: 0, purchases: 0, bytes: 0, newestEvent: 0, newestPurchase: 0)
        try database.run("""
            SELECT COUNT(CASE WHEN kind < 2 THEN 1 END), COUNT(CASE WHEN kind >= 2 THEN 1 END), COALESCE(SUM(size), 0),
                   COALESCE(MAX(CASE WHEN kind < 2 THEN seq END), 0), COALESCE(MAX(CASE WHEN kind >= 2 THEN seq END), 0) FROM records
            """) { row in
            summary = (row.integer(0), row.integer(1), row.integer(2), row.integer(3), row.integer(4))
        }
        // The stored next seq covers records already sent and deleted; the table covers the rest.
        nextEventSeq = max(Int(meta["next_seq"] ?? "") ?? 1, summary.newestEvent + 1)
        nextPurchaseSeq = max(OutboxLane.purchasesFirstSeq, summary.newestPurchase + 1)
        droppedCount = Int(meta["dropped_count"] ?? "") ?? 0
        laneCounts = [.events: summary.events, .purchases: summary.purchases]
        totalBytes = summary.bytes
    }

    func close() { database.close() }

    /// The schema's versions, in `PRAGMA user_version`: 1 adds each record's `route`. A queue
    /// an older version wrote keeps its records; theirs stay NULL (`Outbox.route(of:)`).
    private static func migrate(_ database: SQLiteConnection) throws(WireError) {
        var version = 0
        try database.run("PRAGMA user_version") { row in version = row.integer(0) }
        guard version < 1 else { return }
        try database.transaction { () throws(WireError) in
            var hasRoute = false
            try database.run("SELECT name FROM pragma_table_info('records')") { row in hasRoute = hasRoute || row.text(0) == "route" }
            if !hasRoute { try database.execute("ALTER TABLE records ADD COLUMN route TEXT") }
            try database.execute("PRAGMA user_version = 1")
        }
    }

    func nextSeq(in lane: OutboxLane) -> Int { lane == .events ? nextEventSeq : nextPurchaseSeq }

    func commit(inserting record: OutboxRecord?, seq: Int, lane: OutboxLane, evicting: [String], dropped: Int) throws(WireError) {
        let next = max(nextSeq(in: lane), seq + 1)
        var removed = Removed()
        // The common case is one statement: its own transaction, as cheap as SQLite allows.
        if evicting.isEmpty && dropped == 0, let record {
            try insert(record)
        } else {
            try database.transaction { () throws(WireError) in
                removed = try deleteRecords(evicting)
                if let record { try insert(record) }
                try saveCounters(nextSeq: lane == .events ? next : nextEventSeq, droppedCount: droppedCount + dropped)
            }
        }
        if lane == .events { nextEventSeq = next } else { nextPurchaseSeq = next }
        droppedCount += dropped
        if let record { laneCounts[record.kind.lane, default: 0] += 1 }
        forget(removed)
        totalBytes += record?.body.count ?? 0
    }

    var count: Int { laneCounts.values.reduce(0, +) }

    func count(in lane: OutboxLane) -> Int { laneCounts[lane] ?? 0 }

    func oldestSeq(in lane: OutboxLane) throws(WireError) -> Int? {
        var oldest: Int?
        try database.run("SELECT seq FROM records WHERE kind BETWEEN ? AND ? ORDER BY seq LIMIT 1", SQLiteOutboxStore.kinds(lane)) { row in
            oldest = row.integer(0)
        }
        return oldest
    }

    /// `records_by_kind (kind, seq)` serves both the range and the order: SQLite seeks to the
    /// first row after `seq` and stops after `limit` (EXPLAIN QUERY PLAN: SEARCH records USING
    /// INDEX records_by_kind (kind=? AND seq>?), no sort), so the queue's length costs nothing.
    func oldest(kind: RecordKind, after seq: Int, limit: Int) throws(WireError) -> [(eventId: String, seq: Int, size: Int)] {
        var rows: [(eventId: String, seq: Int, size: Int)] = []
        try database.run("SELECT event_id, seq, size FROM records WHERE kind = ? AND seq > ? ORDER BY seq LIMIT ?",
                         [.integer(kind.rawValue), .integer(seq), .integer(limit)]) { row in
            rows.append((row.text(0), row.integer(1), row.integer(2)))
        }
        return rows
    }

    func oldest(in lane: OutboxLane, maxRecords: Int, maxBytes: Int) throws(WireError) -> [OutboxRecord] {
        var batch: [OutboxRecord] = []
        var bytes = 0
        try database.run("SELECT event_id, seq, kind, body, route FROM records WHERE kind BETWEEN ? AND ? ORDER BY seq LIMIT ?",
                         SQLiteOutboxStore.kinds(lane) + [.integer(maxRecords)]) { row in
            let record = SQLiteOutboxStore.record(row)
            guard batch.isEmpty || bytes + record.body.count <= maxBytes, bytes <= maxBytes else {
                bytes = .max
                return
            }
            batch.append(record)
            bytes += record.body.count
        }
        return batch
    }

    func records(withIds ids: [String]) throws(WireError) -> [OutboxRecord] {
        var found: [OutboxRecord] = []
        for id in ids {
            try database.run("SELECT event_id, seq, kind, body, route FROM records WHERE event_id = ?", [.text(id)]) { row in
                found.append(SQLiteOutboxStore.record(row))
            }
        }
        return found.sorted { $0.seq < $1.seq }
    }

    func remove(_ ids: [String], reportedDropped: Int) throws(WireError) {
        let dropped = max(0, droppedCount - reportedDropped)
        var removed = Removed()
        try database.transaction { () throws(WireError) in
            removed = try deleteRecords(ids)
            try saveCounters(nextSeq: nextEventSeq, droppedCount: dropped)
        }
        droppedCount = dropped
        forget(removed)
    }

    func count(in lane: OutboxLane, upTo seq: Int) throws(WireError) -> Int {
        var result = 0
        try database.run("SELECT COUNT(*) FROM records WHERE kind BETWEEN ? AND ? AND seq <= ?",
                         SQLiteOutboxStore.kinds(lane) + [.integer(seq)]) { row in result = row.integer(0) }
        return result
    }

    /// The kind range of a lane, as two bound parameters (lanes are contiguous ranges of kinds).
    private static func kinds(_ lane: OutboxLane) -> [SQLiteValue] {
        [.integer(lane.kinds.map { $0.rawValue }.min() ?? 0), .integer(lane.kinds.map { $0.rawValue }.max() ?? 0)]
    }

    private func insert(_ record: OutboxRecord) throws(WireError) {
        try database.run("INSERT INTO records (seq, event_id, kind, size, body, route) VALUES (?, ?, ?, ?, ?, ?)",
                         [.integer(record.seq), .text(record.eventId), .integer(record.kind.rawValue),
                          .integer(record.body.count), .blob(record.body), record.route.map { .text($0) } ?? .null])
    }

    /// What a deletion took: records per lane and their bytes.
    private struct Removed {
        var counts: [OutboxLane: Int] = [:]
        var bytes = 0
    }

    /// Deletes the records held among `ids`; returns what went.
    private func deleteRecords(_ ids: [String]) throws(WireError) -> Removed {
        var removed = Removed()
        for id in ids {
            try database.run("DELETE FROM records WHERE event_id = ? RETURNING size, kind", [.text(id)]) { row in
                removed.counts[(RecordKind(rawValue: row.integer(1)) ?? .analytics).lane, default: 0] += 1
                removed.bytes += row.integer(0)
            }
        }
        return removed
    }

    /// Takes committed deletions off the counts kept in memory.
    private func forget(_ removed: Removed) {
        for (lane, count) in removed.counts { laneCounts[lane, default: 0] -= count }
        totalBytes -= removed.bytes
    }

    private func saveCounters(nextSeq: Int, droppedCount: Int) throws(WireError) {
        try database.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('next_seq', ?), ('dropped_count', ?)",
                         [.text(String(nextSeq)), .text(String(droppedCount))])
    }

    private static func record(_ row: SQLiteRow) -> OutboxRecord {
        OutboxRecord(eventId: row.text(0), seq: row.integer(1), kind: RecordKind(rawValue: row.integer(2)) ?? .analytics, body: row.blob(3),
                     route: row.optionalText(4))
    }
}
