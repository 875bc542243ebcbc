import PaywireModel
import PaywireWire

/// Offline access's question to the store: `store.current_entitlements` (with the deadline of
/// every store request), one at a time, turned into offline grants by the product-to-access-level
/// map the device last received (`OfflineAccessRules.decide`). It knows no profile: the profile
/// store asks it (`ProfileStore+Offline`) and applies what it answers when the backend has not
/// answered since the latest ask (`latestAsk`).
final class OfflineAccess {
    private let store: StoreGateway
    /// What the products grant; learnt from the placements served.
    let map: ProductAccessMap
    private let log: Log
    private var inFlight = false
    /// The latest ask: for which profile, and how many backend answers had come by then. An
    /// answer that comes while one is out is folded into it.
    private(set) var latestAsk: (profileId: String, backendAnswers: Int)?

    init(store: StoreGateway, map: ProductAccessMap, log: Log) {
        self.store = store
        self.map = map
        self.log = log
    }

    /// Asks the store what the user owns now, unless nothing could come of it (no billing
    /// provider, or a map that names no product). `reply` hears the offline decisions, once, now
    /// or later; when the store fails or its deadline passes it hears nothing and a `warn` log
    /// event says so: access stays as it was.
    func ask(for profileId: String, backendAnswers: Int, reason: String, reply: @escaping ([AccessDecision]) -> Void) {
        guard store.unavailable == nil, !map.isEmpty else { return }
        latestAsk = (profileId, backendAnswers)
        guard !inFlight else { return }
        inFlight = true
        let answered: StoreReply = { [self] outcome in self.answered(outcome, reason: reason, reply: reply) }
        if let now = store.start(.currentEntitlements, origin: nil, reply: answered) { answered(now) }
    }

    private func answered(_ outcome: StoreOutcome, reason: String, reply: ([AccessDecision]) -> Void) {
        inFlight = false
        guard case .entitlements(let result) = outcome else {
            log(.error, "the store answered current_entitlements with another outcome", details: [("reason", .string(reason))])
            return
        }
        switch result {
        case .failure(let error):
            log(.warn, "the store's current entitlements (\(reason)) are unknown: \(error.message); access stays as it was",
                details: [("reason", .string(reason)), ("underlying_error", .string(error.code.rawValue))])
        case .success(let transactions):
            let store = self.store
            let (decisions, unmapped) = OfflineAccessRules.decide(transactions, map: map.entries) { store.knownProducts([$0]).first }
            for id in unmapped {
                log(.warn, "the store says the user owns '\(id)', to which the product-to-access-level map the device last received gives no access level: it grants nothing offline",
                    details: [("product_id", .string(id))])
            }
            for note in decisions.compactMap({ $0.note }) { log(.info, note) }
            reply(decisions)
        }
    }
}
