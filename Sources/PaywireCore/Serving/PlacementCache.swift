import PaywireModel
import PaywireWire

/// Placements fetched from the backend, kept in memory and (with `storage_dir`) on disk so an
/// offline restart shows what was shown online. Bounded: the oldest fetches are dropped first.
final class PlacementCache {
    static let maxEntries = 256
    private let storage: Storage
    /// With `response_verification`: a copy read back is checked again (enforced drops one
    /// whose signature no longer holds; informational keeps it, marked failed).
    private let documents: DocumentVerifier?
    private var entries: [PlacementKey: RemoteSource.Fetched] = [:]
    private var loadedFromDisk = Set<PlacementKey>()

    init(storage: Storage, documents: DocumentVerifier? = nil) {
        self.storage = storage
        self.documents = documents
    }

    private static func storageKey(_ key: PlacementKey) -> String {
        (key.kind == .paywall ? "placement-cache-" : "onboarding-cache-") + MD5.hexDigest(key.id)
    }

    /// The cached fetch of a placement; a corrupted or foreign entry on disk counts as none
    /// (and is replaced by the next fetch).
    func entry(_ key: PlacementKey) -> RemoteSource.Fetched? {
        if let entry = entries[key] { return entry }
        guard !loadedFromDisk.contains(key) else { return nil }
        loadedFromDisk.insert(key)
        let placementId = key.id
        guard let bytes = try? storage.read(PlacementCache.storageKey(key)),
              case .object(let record)? = try? JSONParser.parse(bytes),
              case .string(let id)? = record["placement_id"], id == placementId,
              case .number(let created)? = record["response_created_at"], let createdAt = created.wideValue,
              case .number(let fetched)? = record["fetched_at"], let fetchedAt = fetched.wideValue,
              case .object(let placement)? = record["placement"] else { return nil }
        var etag: String?
        if case .string(let tag)? = record["etag"] { etag = tag }
        var entry = RemoteSource.Fetched(key: key, etag: etag, responseCreatedAt: createdAt,
                                         fetchedAt: fetchedAt, placement: JSONWriter.encode(.object(placement)))
        if let documents {
            guard let judged = judged(entry, record: record, documents: documents) else { return nil }
            entry = judged
        }
        entries[key] = entry
        return entry
    }

    /// A copy read back, judged: when its answer was kept, the placement served is the one the
    /// answer's signed bytes hold (the record's own copy of it is not trusted), else none is
    /// signed. Nil when enforced mode drops it.
    private func judged(_ entry: RemoteSource.Fetched, record: JSONObject, documents: DocumentVerifier) -> RemoteSource.Fetched? {
        var entry = entry
        if case .string(let text)? = record["answer"], let answer = Base64.decode(text) {
            guard let (createdAt, placement) = RemoteSource.parse(answer) else { return nil }
            entry = RemoteSource.Fetched(key: entry.key, etag: entry.etag, responseCreatedAt: createdAt, fetchedAt: entry.fetchedAt,
                                         placement: placement, answer: answer, signed: SignedDocument(json: record["signature"]))
        }
        let (judged, failure) = documents.judge(entry, at: entry.fetchedAt)
        return failure != nil && documents.mode == .enforced ? nil : judged
    }

    /// Keeps a fetch (written to disk atomically, readable by the owner only).
    func store(_ fetched: RemoteSource.Fetched) throws(WireError) {
        // `placement` is already encoded JSON (checked when the response was read): written
        // as it is, not parsed again.
        var record = JSONWriter()
        record.object { writer in
            writer.member("placement_id", fetched.placementId)
            writer.member("etag", fetched.etag)
            writer.member("response_created_at", fetched.responseCreatedAt)
            writer.member("fetched_at", fetched.fetchedAt)
            writer.key("placement")
            writer.raw(fetched.placement)
            if let answer = fetched.answer { writer.member("answer", Base64.encode(answer)) }
            if let signed = fetched.signed {
                writer.key("signature")
                writer.value(signed.json)
            }
        }
        try storage.write(PlacementCache.storageKey(fetched.key), record.bytes)
        entries[fetched.key] = fetched
        loadedFromDisk.insert(fetched.key)
        if entries.count > PlacementCache.maxEntries, let oldest = entries.values.min(by: { $0.fetchedAt < $1.fetchedAt }) {
            entries.removeValue(forKey: oldest.key)
            try? storage.remove(PlacementCache.storageKey(oldest.key))
        }
    }

    /// Marks a cached fetch as confirmed current now (a 304), for `max_age`.
    func touch(_ key: PlacementKey, now: WideInt) throws(WireError) {
        guard let entry = entry(key) else { return }
        try store(entry.touched(now))
    }
}
