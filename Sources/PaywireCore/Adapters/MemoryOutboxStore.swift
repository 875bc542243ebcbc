/// The queue without `storage_dir`: the same rules, kept for the client's life only (not durable).
final class MemoryOutboxStore: OutboxStore {
    let installId = UUIDs.v4()
    private var nextSeqs: [OutboxLane: Int] = [.events: 1, .purchases: OutboxLane.purchasesFirstSeq]
    private(set) var totalBytes = 0
    private(set) var droppedCount = 0
    private var records: [OutboxRecord] = []
    private var laneCounts: [OutboxLane: Int] = [:]

    var count: Int { records.count }

    func close() {}

    func count(in lane: OutboxLane) -> Int { laneCounts[lane] ?? 0 }

    func oldestSeq(in lane: OutboxLane) throws(WireError) -> Int? { records.first { $0.kind.lane == lane }?.seq }

    func nextSeq(in lane: OutboxLane) -> Int { nextSeqs[lane] ?? 1 }

    func commit(inserting record: OutboxRecord?, seq: Int, lane: OutboxLane, evicting: [String], dropped: Int) throws(WireError) {
        removeRecords(Set(evicting))
        if let record {
            records.append(record)
            totalBytes += record.body.count
            laneCounts[record.kind.lane, default: 0] += 1
        }
        nextSeqs[lane] = max(nextSeq(in: lane), seq + 1)
        droppedCount += dropped
    }

    func oldest(kind: RecordKind, limit: Int) throws(WireError) -> [(eventId: String, size: Int)] {
        Array(records.lazy.filter { $0.kind == kind }.prefix(limit).map { ($0.eventId, $0.body.count) })
    }

    func oldest(in lane: OutboxLane, maxRecords: Int, maxBytes: Int) throws(WireError) -> [OutboxRecord] {
        var batch: [OutboxRecord] = []
        var bytes = 0
        for record in records.lazy.filter({ $0.kind.lane == lane }).prefix(maxRecords) {
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

    func count(in lane: OutboxLane, upTo seq: Int) throws(WireError) -> Int {
        records.lazy.filter { $0.kind.lane == lane && $0.seq <= seq }.count
    }

    private func removeRecords(_ ids: Set<String>) {
        guard !ids.isEmpty else { return }
        records.removeAll { record in
            guard ids.contains(record.eventId) else { return false }
            totalBytes -= record.body.count
            laneCounts[record.kind.lane, default: 0] -= 1
            return true
        }
    }
}
