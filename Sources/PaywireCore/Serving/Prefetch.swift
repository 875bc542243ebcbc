import PaywireModel
import PaywireWire

/// `prefetch {placement_ids, locale?}`: the paywall placements to warm.
struct PrefetchRequest: Sendable {
    /// More would be a sync caller blocking on a flood of requests; a host warms in batches.
    static let maxPlacements = 100
    let placementIds: [String]
    let locale: String?

    init(_ params: Fields) throws(WireError) {
        let values = try params.array("placement_ids")
        guard !values.isEmpty, values.count <= PrefetchRequest.maxPlacements else {
            throw WireError.wrongParam(params.fieldPath("placement_ids"), "expected 1 to \(PrefetchRequest.maxPlacements) placement ids")
        }
        var ids: [String] = []
        for (index, value) in values.enumerated() {
            guard case .string(let id) = value, !id.isEmpty else {
                throw WireError.wrongParam(params.fieldPath("placement_ids[\(index)]"), "expected a non-empty placement id")
            }
            ids.append(id)
        }
        placementIds = ids
        locale = try params.optionalString("locale")
    }
}

/// One placement's prefetch: which source serves it, why not the backend, and what to download.
struct PrefetchOutcome: Sendable {
    let placementId: String
    let source: PlacementSource
    /// The backend's failure when cache or bundle served, or why nothing could.
    let error: WireError?
    let assetURLs: [String]

    /// Reads what `get_paywall` would have answered: a served paywall's builder, and the
    /// failure the answer carries.
    init(placementId: String, _ answer: PlacementAnswer) {
        self.placementId = placementId
        source = answer.source
        error = answer.failure
        var urls: [String] = []
        if case .success(.paywall(let served)) = answer.served { urls = PaywallBuilder.assetURLs(served.reference.builder) }
        assetURLs = urls
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("placement_id", placementId)
            writer.member("source", source.rawValue)
            if let error {
                writer.key("error")
                error.write(to: &writer)
            }
            writer.key("asset_urls")
            writer.array { writer in for url in assetURLs { writer.string(url) } }
        }
    }
}

/// The placements of one `prefetch` call as they are served, answered together when the last
/// one is in (a failure of one is its own entry, never the call's).
final class PrefetchRun {
    private let placementIds: [String]
    private var outcomes: [PrefetchOutcome?]
    private var remaining: Int
    /// Called once, with the answer, when every placement is in; nil when the caller reads
    /// `response` itself (every placement was served at once).
    private var whenDone: ((CallResponse) -> Void)?

    init(placementIds: [String], whenDone: ((CallResponse) -> Void)? = nil) {
        self.placementIds = placementIds
        self.whenDone = whenDone
        outcomes = Array(repeating: nil, count: placementIds.count)
        remaining = placementIds.count
    }

    /// Keeps how placement `index` was served (the first answer counts); the last one in
    /// calls `whenDone`.
    func record(_ index: Int, _ answer: PlacementAnswer) {
        guard outcomes.indices.contains(index), outcomes[index] == nil else { return }
        outcomes[index] = PrefetchOutcome(placementId: placementIds[index], answer)
        remaining -= 1
        if remaining == 0, let whenDone {
            self.whenDone = nil
            whenDone(response)
        }
    }

    /// `{placements: [...], asset_urls: [...]}`, in the order asked.
    var response: CallResponse {
        let done = outcomes.compactMap { $0 }
        var seen = Set<String>()
        let all = done.flatMap { $0.assetURLs }.filter { seen.insert($0).inserted }
        return .success { writer in
            writer.object { writer in
                writer.key("placements")
                writer.array { writer in for outcome in done { outcome.write(to: &writer) } }
                writer.key("asset_urls")
                writer.array { writer in for url in all { writer.string(url) } }
            }
        }
    }
}
