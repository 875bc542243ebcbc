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
        let responseCreatedAt: WideInt
        /// When it was fetched (ms), for `max_age`.
        let fetchedAt: WideInt
        /// The placement object's JSON text.
        let placement: [UInt8]
        /// With `response_verification`: the answer's exact bytes and the signature that came
        /// with them (`DocumentSignature`), kept so a copy read back is checked again, and how
        /// they were judged (nil: nothing was asked).
        var answer: [UInt8]? = nil
        var signed: SignedDocument? = nil
        var verification: Verification? = nil

        /// The same copy, confirmed current at `now` (a 304).
        func touched(_ now: WideInt) -> Fetched {
            Fetched(key: key, etag: etag, responseCreatedAt: responseCreatedAt, fetchedAt: now, placement: placement, answer: answer,
                    signed: signed, verification: verification)
        }
    }

    /// What a usable response means for the fetch. A response that is not usable (an HTTP
    /// error, a body that is not a placement answer) is thrown by `interpret`, not carried
    /// here: an enum holding both a `Fetched` (153 bytes) and a `WireError` (32) keeps its case
    /// in spare bits of a word the error never writes, and reading that half-written word made
    /// valgrind report every failed fetch as a use of uninitialised memory.
    enum Result: Sendable {
        case fresh(Fetched)
        case notModified
        case notFound
    }

    static func headers(profileId: String, etag: String?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("accept", "application/json"), (APIHeader.profileId, profileId)]
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
        if let code = failure.details["backend_code"] { details.append(("backend_code", code)) }
        return details
    }

    /// What an HTTP response to a placement request means; why it is not usable, thrown.
    static func interpret(_ response: HTTPResponse, key: PlacementKey, now: WideInt) throws(WireError) -> Result {
        let placementId = key.id
        switch response.status {
        case 304: return .notModified
        case 404: return .notFound
        case 200:
            guard let (createdAt, placement) = parse(response.body) else {
                throw WireError(.decodingFailed, "the backend's placement response is not {response_created_at, placement}",
                                details: JSONObject([("placement_id", .string(placementId))]))
            }
            return .fresh(Fetched(key: key, etag: response.header("etag"), responseCreatedAt: createdAt,
                                  fetchedAt: now, placement: placement))
        default:
            var details = JSONObject([("placement_id", .string(placementId)), ("status", .number(JSONNumber(response.status)))])
            let code = errorCode(response.body)
            if let code { details.set("backend_code", .string(code)) }
            throw WireError(.networkFailed, "the backend answered HTTP \(response.status)\(code.map { " (\($0))" } ?? "")",
                            details: details)
        }
    }

    /// A placement answer's body: its `response_created_at` and the placement's JSON text.
    static func parse(_ body: [UInt8]) -> (createdAt: WideInt, placement: [UInt8])? {
        guard case .object(let document)? = try? JSONParser.parse(body),
              case .number(let created)? = document["response_created_at"], let createdAt = created.wideValue,
              case .object(let placement)? = document["placement"] else { return nil }
        return (createdAt, JSONWriter.encode(.object(placement)))
    }

    /// The code of the spec's error body (`{"error": {"code": "unauthorized", ...}}`), if it has one.
    static func errorCode(_ body: [UInt8]) -> String? {
        guard case .object(let document)? = try? JSONParser.parse(body), case .object(let error)? = document["error"],
              case .string(let code)? = error["code"] else { return nil }
        return code
    }
}
