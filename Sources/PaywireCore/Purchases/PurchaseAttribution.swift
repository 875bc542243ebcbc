import PaywireModel
import PaywireWire

/// What a purchase is attributed to: the paywall (placement, audience, A/B test, variation)
/// it was made on. The backend reads conversions per variation from it.
struct PurchaseAttribution: Equatable, Sendable {
    let placementId: String
    let audienceName: String?
    let abTestName: String
    let variationId: String
    let paywallId: String?
    let paywallName: String

    init(_ paywall: PaywallReference) {
        placementId = paywall.placementId
        audienceName = paywall.audienceName
        abTestName = paywall.abTestName
        variationId = paywall.variationId
        paywallId = paywall.paywallId
        paywallName = paywall.paywallName
    }

    /// `{placement_id, audience_name?, ab_test_name, variation_id, paywall_id?, paywall_name}`.
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("placement_id", placementId)
            if let audienceName { writer.member("audience_name", audienceName) }
            writer.member("ab_test_name", abTestName)
            writer.member("variation_id", variationId)
            if let paywallId { writer.member("paywall_id", paywallId) }
            writer.member("paywall_name", paywallName)
        }
    }

    /// Reads what `write` wrote; nil when it is not that shape.
    init?(_ value: JSONValue) {
        guard case .object(let object) = value, case .string(let placement)? = object["placement_id"],
              case .string(let variation)? = object["variation_id"] else { return nil }
        func text(_ key: String) -> String? {
            if case .string(let text)? = object[key] { return text }
            return nil
        }
        placementId = placement
        variationId = variation
        audienceName = text("audience_name")
        abTestName = text("ab_test_name") ?? ""
        paywallId = text("paywall_id")
        paywallName = text("paywall_name") ?? ""
    }
}

/// The attributions of purchases under way, kept durably from the moment a purchase starts, so
/// a purchase the store completes after a crash (reported again with `report_transaction`) is
/// still attributed to its paywall. One record, by product id; entries older than a week go.
final class PurchaseAttributions {
    static let storageKey = "purchase-attributions"
    static let lifetimeMilliseconds = 7 * Milliseconds.day
    private let storage: Storage
    private var entries: [(productId: String, attribution: PurchaseAttribution, startedAt: Int)]

    init(storage: Storage) {
        self.storage = storage
        entries = []
        guard case .object(let stored)? = ((try? storage.read(PurchaseAttributions.storageKey)) ?? nil).flatMap({ try? JSONParser.parse($0) }) else {
            return
        }
        for member in stored.members {
            guard case .object(let entry) = member.value, let attribution = entry["attribution"].flatMap(PurchaseAttribution.init),
                  case .number(let started)? = entry["started_at"], let startedAt = started.intValue else { continue }
            entries.append((member.key, attribution, startedAt))
        }
    }

    /// Keeps `attribution` for a purchase of `productId` starting `now`.
    func remember(_ attribution: PurchaseAttribution, for productId: String, now: Int) throws(WireError) {
        var next = entries.filter { $0.productId != productId && now - $0.startedAt < PurchaseAttributions.lifetimeMilliseconds }
        next.append((productId, attribution, now))
        try save(next)
    }

    /// The attribution of the purchase of `productId`, taken off the record.
    func take(_ productId: String) -> PurchaseAttribution? {
        guard let entry = entries.last(where: { $0.productId == productId }) else { return nil }
        try? save(entries.filter { $0.productId != productId })
        return entry.attribution
    }

    private func save(_ next: [(productId: String, attribution: PurchaseAttribution, startedAt: Int)]) throws(WireError) {
        var writer = JSONWriter()
        writer.object { writer in
            for entry in next {
                writer.key(entry.productId)
                writer.object { writer in
                    writer.key("attribution")
                    entry.attribution.write(to: &writer)
                    writer.member("started_at", entry.startedAt)
                }
            }
        }
        try storage.write(PurchaseAttributions.storageKey, writer.bytes)
        entries = next
    }
}
