import PaywireModel
import PaywireWire

/// Which kind of placement: paywall placements and onboarding placements are fetched, cached
/// and served alike, from their own collections.
enum PlacementKind: Sendable, Hashable {
    case paywall
    case onboarding

    /// The API collection and the bundle section.
    var collection: String { self == .paywall ? "placements" : "onboardings" }
}

/// A placement of a kind.
struct PlacementKey: Sendable, Hashable {
    let kind: PlacementKind
    let id: String
}

/// The backend API the core speaks (documented in `api/openapi.yaml`):
///
///     GET {base_url}/v1/placements/{placement_id}     (and /v1/onboardings/{placement_id})
///         x-paywire-profile-id: <profile id>
///         if-none-match: <etag of the cached copy>          (when there is one)
///     200 {"response_created_at": <ms>, "placement": <placement, bundle shape>}   etag: <tag>
///     304 (the cached copy is current)   404 (no such placement)   other: a failure
///
/// The response carries every audience and variation, so the choice stays on the device.
enum RemoteSource {
    /// A placement fetched from the backend, as stored in the cache.
    struct Fetched: Sendable {
        let key: PlacementKey
        var placementId: String { key.id }
        let etag: String?
        let responseCreatedAt: Int
        /// When it was fetched (ms), for `max_age`.
        let fetchedAt: Int
        /// The placement object's JSON text.
        let placement: [UInt8]
    }

    /// What a response means for the fetch.
    enum Result: Sendable {
        case fresh(Fetched)
        case notModified
        case notFound
        case failed(WireError)
    }

    static func headers(profileId: String, etag: String?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("accept", "application/json"), ("x-paywire-profile-id", profileId)]
        if let etag { headers.append(("if-none-match", etag)) }
        return headers
    }

    /// The details of a log event saying which source served instead of the backend, and why:
    /// the wire code, the transport's own name for the failure when there is one
    /// (`connect_failed`, ...), and the HTTP status of an HTTP error.
    static func fallbackDetails(source: String, failure: WireError) -> [(key: String, value: JSONValue)] {
        var details: [(key: String, value: JSONValue)] = [("source", .string(source)), ("underlying_error", .string(failure.code.rawValue))]
        if let transportError = failure.details["underlying_error"] { details.append(("transport_error", transportError)) }
        if let status = failure.details["status"] { details.append(("status", status)) }
        return details
    }

    /// What an HTTP response to a placement request means.
    static func interpret(_ response: HTTPResponse, key: PlacementKey, now: Int) -> Result {
        let placementId = key.id
        switch response.status {
        case 304: return .notModified
        case 404: return .notFound
        case 200:
            guard case .object(let document)? = try? JSONParser.parse(response.body),
                  case .number(let created)? = document["response_created_at"], let createdAt = created.intValue,
                  case .object(let placement)? = document["placement"] else {
                return .failed(WireError(.decodingFailed, "the backend's placement response is not {response_created_at, placement}",
                                         details: JSONObject([("placement_id", .string(placementId))])))
            }
            return .fresh(Fetched(key: key, etag: response.header("etag"), responseCreatedAt: createdAt,
                                  fetchedAt: now, placement: JSONWriter.encode(.object(placement))))
        default:
            return .failed(WireError(.networkFailed, "the backend answered HTTP \(response.status)",
                                     details: JSONObject([("placement_id", .string(placementId)),
                                                          ("status", .number(JSONNumber(response.status)))])))
        }
    }
}

/// Placements fetched from the backend, kept in memory and (with `storage_dir`) on disk so an
/// offline restart shows what was shown online. Bounded: the oldest fetches are dropped first.
final class PlacementCache {
    static let maxEntries = 256
    private let storage: Storage
    private var entries: [PlacementKey: RemoteSource.Fetched] = [:]
    private var loadedFromDisk = Set<PlacementKey>()

    init(storage: Storage) { self.storage = storage }

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
              case .number(let created)? = record["response_created_at"], let createdAt = created.intValue,
              case .number(let fetched)? = record["fetched_at"], let fetchedAt = fetched.intValue,
              case .object(let placement)? = record["placement"] else { return nil }
        var etag: String?
        if case .string(let tag)? = record["etag"] { etag = tag }
        let entry = RemoteSource.Fetched(key: key, etag: etag, responseCreatedAt: createdAt,
                                         fetchedAt: fetchedAt, placement: JSONWriter.encode(.object(placement)))
        entries[key] = entry
        return entry
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
    func touch(_ key: PlacementKey, now: Int) throws(WireError) {
        guard let entry = entry(key) else { return }
        try store(RemoteSource.Fetched(key: entry.key, etag: entry.etag, responseCreatedAt: entry.responseCreatedAt,
                                       fetchedAt: now, placement: entry.placement))
    }
}
