import PaywireModel
import PaywireWire

/// How a record is treated when the queue is full: plain analytics go first (oldest first),
/// attribution records (exposures) after them, and records that carry money never. The
/// profile's own records (attributes, integration ids, install attribution) are never evicted
/// either: a change makes one only when it changed something, so they stay few.
public enum RecordKind: Int, Sendable, CaseIterable {
    case analytics = 0
    case attribution = 1
    case money = 2
    /// `PUT /v1/profiles/{id}/attributes` (update_profile).
    case profileAttributes = 3
    /// `PUT /v1/profiles/{id}/integration-ids` (set_integration_identifiers).
    case integrationIds = 4
    /// `POST /v1/attribution` (update_attribution).
    case installAttribution = 5
    /// `POST /v1/profiles/{id}/identity` (identify): its answer may move the device to the
    /// customer's profile.
    case identity = 6
}

/// Where records go: analytics (plain and attribution) in batches to `/v1/events`; purchases
/// (money) and the profile's records one at a time, each to its own route. Each lane is
/// delivered on its own. The purchases lane is the one `analytics_disabled` never stops.
public enum OutboxLane: Int, Sendable, CaseIterable {
    case events = 0
    case purchases = 1

    public var kinds: [RecordKind] {
        self == .events ? [.analytics, .attribution] : [.money, .profileAttributes, .integrationIds, .installAttribution, .identity]
    }

    /// Where the purchases lane's seqs start, far above any events seq.
    public static let purchasesFirstSeq: WideInt = 1 << 52
}

extension RecordKind {
    public var lane: OutboxLane { self == .analytics || self == .attribution ? .events : .purchases }
}

/// One record on its way to the backend, as kept in the queue and sent: `body` is the
/// encoded record, made once, so every retry sends the same bytes with the same `event_id`.
public struct OutboxRecord: Equatable, Sendable {
    public let eventId: String
    /// Monotonic per install, across restarts; a gap is a record evicted before it was sent.
    public let seq: WideInt
    public let kind: RecordKind
    public let body: [UInt8]
    /// A purchases-lane record's route under `{base_url}/v1/` (`purchases`,
    /// `profiles/{id}/attributes`), fixed when it was made: the record's profile may no longer
    /// be the current one when it is sent. Nil for analytics (they go to `events` in batches),
    /// and for records an older version kept without one.
    public let route: String?

    public init(eventId: String, seq: WideInt, kind: RecordKind, body: [UInt8], route: String? = nil) {
        self.eventId = eventId
        self.seq = seq
        self.kind = kind
        self.body = body
        self.route = route
    }
}

/// The durable queue behind the outbox (a port: SQLite under `storage_dir` in the library,
/// memory without one). Every mutation is one transaction: after it returns, a process crash
/// keeps it. Called under the client's lock only.
public protocol OutboxStore: AnyObject {
    /// Made once when the queue is created, kept with it: one id per `storage_dir`.
    var installId: String { get }
    /// Closes the queue's files now (the client is being freed); later calls fail.
    func close()
    /// The seq the next record of a lane takes. The events lane's seq is the records' wire
    /// `seq`: monotonic per install across restarts. The purchases lane's only orders its queue
    /// (its seqs never mix with the events lane's, so neither shows the other as a gap).
    func nextSeq(in lane: OutboxLane) -> WideInt
    /// The records held in all lanes.
    var count: Int { get }
    /// The bytes of the records held.
    var totalBytes: Int { get }
    /// Records evicted and not yet reported to the backend.
    var droppedCount: WideInt { get }
    /// The records held in a lane. Kept in memory, not counted in storage: it is asked on
    /// every record, and counting a long offline queue each time would grow with it.
    func count(in lane: OutboxLane) -> Int
    /// The lowest seq held in a lane, nil when it is empty.
    func oldestSeq(in lane: OutboxLane) throws(WireError) -> WideInt?
    /// One transaction: keeps `record` (nil when the record was itself the one evicted; its
    /// seq, of `lane`, is consumed either way), deletes `evicting`, adds `dropped` to the
    /// dropped count.
    func commit(inserting record: OutboxRecord?, seq: WideInt, lane: OutboxLane, evicting: [String], dropped: WideInt) throws(WireError)
    /// The oldest records of `kind` with a seq above `seq`, at most `limit`, in seq order, with
    /// their sizes: eviction candidates, asked a few at a time (`after` the last one read), so
    /// making room reads about as many rows as it removes. Must not read the whole queue: it is
    /// asked each time a full queue makes room.
    func oldest(kind: RecordKind, after seq: WideInt, limit: Int) throws(WireError) -> [(eventId: String, seq: WideInt, size: Int)]
    /// The oldest records of a lane in seq order: at most `maxRecords`, and within `maxBytes`
    /// (always at least one when any is held).
    func oldest(in lane: OutboxLane, maxRecords: Int, maxBytes: Int) throws(WireError) -> [OutboxRecord]
    /// The records with these ids that are still held, in seq order.
    func records(withIds ids: [String]) throws(WireError) -> [OutboxRecord]
    /// One transaction: deletes the records (acknowledged or refused) and takes `reportedDropped`
    /// off the dropped count.
    func remove(_ ids: [String], reportedDropped: WideInt) throws(WireError)
    /// The number of records of a lane held with seq up to `seq`.
    func count(in lane: OutboxLane, upTo seq: WideInt) throws(WireError) -> Int
}

/// Opens (creating when needed) the durable queue under a `storage_dir`.
public typealias OutboxStoreOpener = (_ directory: String) throws(WireError) -> OutboxStore
