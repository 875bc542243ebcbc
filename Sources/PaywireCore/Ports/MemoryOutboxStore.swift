import PaywireModel
import PaywireWire

/// The queue without `storage_dir`: the same rules, kept for the client's life only (not durable).
/// Records are held by `event_id`, and each kind's ids wait in their own line in seq order, so
/// eviction reads and removes only the records that go, however long the queue.
final class MemoryOutboxStore: OutboxStore {
    let installId: String
    private var nextSeqs: [OutboxLane: WideInt] = [.events: 1, .purchases: OutboxLane.purchasesFirstSeq]
    private(set) var totalBytes = 0
    private(set) var droppedCount: WideInt = 0
    private var held: [String: OutboxRecord] = [:]
    private var lines: [RecordKind: KindLine] = [:]
    private var laneCounts: [OutboxLane: Int] = [:]

    var count: Int { held.count }

    init(installId: String) { self.installId = installId }

    func close() {}

    func count(in lane: OutboxLane) -> Int { laneCounts[lane] ?? 0 }

    func oldestSeq(in lane: OutboxLane) throws(WireError) -> WideInt? {
        lane.kinds.compactMap { lines[$0]?.first(after: WideInt.min, isHeld: isHeld) }.min()
    }

    func nextSeq(in lane: OutboxLane) -> WideInt { nextSeqs[lane] ?? 1 }

    func commit(inserting record: OutboxRecord?, seq: WideInt, lane: OutboxLane, evicting: [String], dropped: WideInt) throws(WireError) {
        if let record, held[record.eventId] != nil {
            // As the durable store's unique index would: the id names one record.
            throw WireError(.storageFailed, "a record with event_id '\(record.eventId)' is already queued")
        }
        removeRecords(evicting)
        if let record {
            held[record.eventId] = record
            lines[record.kind, default: KindLine()].append(Entry(eventId: record.eventId, seq: record.seq))
            totalBytes += record.body.count
            laneCounts[record.kind.lane, default: 0] += 1
        }
        nextSeqs[lane] = max(nextSeq(in: lane), seq + 1)
        droppedCount += dropped
    }

    func oldest(kind: RecordKind, after seq: WideInt, limit: Int) throws(WireError) -> [(eventId: String, seq: WideInt, size: Int)] {
        guard let line = lines[kind] else { return [] }
        var found: [(eventId: String, seq: WideInt, size: Int)] = []
        var position = line.firstPosition(after: seq)
        while found.count < limit, let entry = line.entry(at: position) {
            if let record = held[entry.eventId], record.seq == entry.seq { found.append((entry.eventId, entry.seq, record.body.count)) }
            position += 1
        }
        return found
    }

    func oldest(in lane: OutboxLane, maxRecords: Int, maxBytes: Int) throws(WireError) -> [OutboxRecord] {
        var batch: [OutboxRecord] = []
        var bytes = 0
        for record in inSeqOrder(lane, limit: maxRecords) {
            if !batch.isEmpty && bytes + record.body.count > maxBytes { break }
            batch.append(record)
            bytes += record.body.count
        }
        return batch
    }

    func records(withIds ids: [String]) throws(WireError) -> [OutboxRecord] {
        Set(ids).compactMap { held[$0] }.sorted { $0.seq < $1.seq }
    }

    func remove(_ ids: [String], reportedDropped: WideInt) throws(WireError) {
        removeRecords(ids)
        droppedCount = max(0, droppedCount - reportedDropped)
    }

    func count(in lane: OutboxLane, upTo seq: WideInt) throws(WireError) -> Int {
        lane.kinds.reduce(0) { total, kind in total + (lines[kind]?.entries(upTo: seq).filter(isHeld).count ?? 0) }
    }

    private func isHeld(_ entry: Entry) -> Bool { held[entry.eventId]?.seq == entry.seq }

    /// The lane's oldest records, at most `limit`, in seq order (its kinds' lines merged).
    private func inSeqOrder(_ lane: OutboxLane, limit: Int) -> [OutboxRecord] {
        let laneLines = lane.kinds.map { lines[$0] ?? KindLine() }
        var positions = laneLines.map { $0.firstPosition(after: WideInt.min) }
        var merged: [OutboxRecord] = []
        while merged.count < limit {
            var next: (index: Int, record: OutboxRecord)?
            for (index, line) in laneLines.enumerated() {
                while let entry = line.entry(at: positions[index]), !isHeld(entry) { positions[index] += 1 }
                guard let entry = line.entry(at: positions[index]), let record = held[entry.eventId] else { continue }
                if next.map({ record.seq < $0.record.seq }) ?? true { next = (index, record) }
            }
            guard let next else { break }
            merged.append(next.record)
            positions[next.index] += 1
        }
        return merged
    }

    private func removeRecords(_ ids: [String]) {
        for id in ids {
            guard let record = held.removeValue(forKey: id) else { continue }
            totalBytes -= record.body.count
            laneCounts[record.kind.lane, default: 0] -= 1
            lines[record.kind]?.dropRemovedHead(isHeld: isHeld)
        }
    }
}

/// Where a record waits in its kind's line; held only while `held` has that id with that seq.
private struct Entry {
    let eventId: String
    let seq: WideInt
}

/// One kind's ids in the order they were kept (seq order). A removed record leaves its entry
/// behind until it reaches the head, which moves past it; the space behind the head is given
/// back once it is half the line.
private struct KindLine {
    private var entries: [Entry] = []
    private var head = 0

    /// Keeps seq order: a record is kept with the next seq of its lane, so it goes last; one
    /// that did not would be placed by its seq.
    mutating func append(_ entry: Entry) {
        if let last = entries.last, last.seq > entry.seq {
            entries.insert(entry, at: firstPosition(after: entry.seq))
        } else {
            entries.append(entry)
        }
    }

    func entry(at position: Int) -> Entry? { position < entries.count ? entries[position] : nil }

    /// The position of the first entry with a seq above `seq` (a binary search: seqs ascend).
    func firstPosition(after seq: WideInt) -> Int {
        var low = head, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].seq <= seq { low = middle + 1 } else { high = middle }
        }
        return low
    }

    func first(after seq: WideInt, isHeld: (Entry) -> Bool) -> WideInt? {
        entries[firstPosition(after: seq)...].first(where: isHeld)?.seq
    }

    func entries(upTo seq: WideInt) -> ArraySlice<Entry> { entries[head..<firstPosition(after: seq)] }

    mutating func dropRemovedHead(isHeld: (Entry) -> Bool) {
        while head < entries.count && !isHeld(entries[head]) { head += 1 }
        if head >= 64 && head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
