/// How a record is treated when the queue is full: plain analytics go first (oldest first),
/// attribution records (exposures) after them, and records that carry money never.
public enum RecordKind: Int, Sendable, CaseIterable {
    case analytics = 0
    case attribution = 1
    case money = 2
}

/// One record on its way to the backend, as kept in the queue and sent: `body` is the
/// encoded record, made once, so every retry sends the same bytes with the same `event_id`.
public struct OutboxRecord: Equatable, Sendable {
    public let eventId: String
    /// Monotonic per install, across restarts; a gap is a record evicted before it was sent.
    public let seq: Int
    public let kind: RecordKind
    public let body: [UInt8]

    public init(eventId: String, seq: Int, kind: RecordKind, body: [UInt8]) {
        self.eventId = eventId
        self.seq = seq
        self.kind = kind
        self.body = body
    }
}

/// The durable queue behind the outbox (a port: SQLite under `storage_dir` in the library,
/// memory without one). Every mutation is one transaction: after it returns, a process crash
/// keeps it. Called under the client's lock only.
public protocol OutboxStore: AnyObject {
    /// Made once when the queue is created, kept with it: one id per `storage_dir`.
    var installId: String { get }
    /// The seq the next record takes.
    var nextSeq: Int { get }
    var count: Int { get }
    /// The bytes of the records held.
    var totalBytes: Int { get }
    /// Records evicted and not yet reported to the backend.
    var droppedCount: Int { get }
    /// The lowest seq held, nil when empty.
    var oldestSeq: Int? { get }
    /// One transaction: keeps `record` (nil when the record was itself the one evicted; its
    /// seq is consumed either way), deletes `evicting`, adds `dropped` to the dropped count.
    func commit(inserting record: OutboxRecord?, seq: Int, evicting: [String], dropped: Int) throws(WireError)
    /// The oldest records of `kind`, at most `limit`, with their sizes (eviction candidates).
    func oldest(kind: RecordKind, limit: Int) throws(WireError) -> [(eventId: String, size: Int)]
    /// The oldest records in seq order: at most `maxRecords`, and within `maxBytes` (always at
    /// least one when any is held).
    func oldest(maxRecords: Int, maxBytes: Int) throws(WireError) -> [OutboxRecord]
    /// The records with these ids that are still held, in seq order.
    func records(withIds ids: [String]) throws(WireError) -> [OutboxRecord]
    /// One transaction: deletes the records (acknowledged or refused) and takes `reportedDropped`
    /// off the dropped count.
    func remove(_ ids: [String], reportedDropped: Int) throws(WireError)
    /// The number of records held with seq up to `seq`.
    func count(upTo seq: Int) throws(WireError) -> Int
}

/// Opens (creating when needed) the durable queue under a `storage_dir`.
public typealias OutboxStoreOpener = (_ directory: String) throws(WireError) -> OutboxStore

/// The queue without `storage_dir`: the same rules, kept for the client's life only (not durable).
final class MemoryOutboxStore: OutboxStore {
    let installId = UUIDs.v4()
    private(set) var nextSeq = 1
    private(set) var totalBytes = 0
    private(set) var droppedCount = 0
    private var records: [OutboxRecord] = []

    var count: Int { records.count }
    var oldestSeq: Int? { records.first?.seq }

    func commit(inserting record: OutboxRecord?, seq: Int, evicting: [String], dropped: Int) throws(WireError) {
        removeRecords(Set(evicting))
        if let record {
            records.append(record)
            totalBytes += record.body.count
        }
        nextSeq = max(nextSeq, seq + 1)
        droppedCount += dropped
    }

    func oldest(kind: RecordKind, limit: Int) throws(WireError) -> [(eventId: String, size: Int)] {
        Array(records.lazy.filter { $0.kind == kind }.prefix(limit).map { ($0.eventId, $0.body.count) })
    }

    func oldest(maxRecords: Int, maxBytes: Int) throws(WireError) -> [OutboxRecord] {
        var batch: [OutboxRecord] = []
        var bytes = 0
        for record in records.prefix(maxRecords) {
            if !batch.isEmpty && bytes + record.body.count > maxBytes { break }
            batch.append(record)
            bytes += record.body.count
        }
        return batch
    }

    func records(withIds ids: [String]) throws(WireError) -> [OutboxRecord] {
        let wanted = Set(ids)
        return records.filter { wanted.contains($0.eventId) }
    }

    func remove(_ ids: [String], reportedDropped: Int) throws(WireError) {
        removeRecords(Set(ids))
        droppedCount = max(0, droppedCount - reportedDropped)
    }

    func count(upTo seq: Int) throws(WireError) -> Int { records.lazy.filter { $0.seq <= seq }.count }

    private func removeRecords(_ ids: Set<String>) {
        guard !ids.isEmpty else { return }
        records.removeAll { record in
            guard ids.contains(record.eventId) else { return false }
            totalBytes -= record.body.count
            return true
        }
    }
}
