import PaywireModel
import PaywireWire

/// The attributions of purchases under way, kept durably from the moment a purchase starts, so
/// a purchase the store completes after a crash (reported again with `report_transaction`) is
/// still attributed to its paywall. One record, by product id; entries older than a week go.
final class PurchaseAttributions {
    static let storageKey = "purchase-attributions"
    static let lifetimeMilliseconds = 7 * Milliseconds.day
    private let storage: Storage
    private var entries: [(productId: String, attribution: PurchaseAttribution, startedAt: WideInt)]

    init(storage: Storage) {
        self.storage = storage
        entries = []
        guard case .object(let stored)? = ((try? storage.read(PurchaseAttributions.storageKey)) ?? nil).flatMap({ try? JSONParser.parse($0) }) else {
            return
        }
        for member in stored.members {
            guard case .object(let entry) = member.value, case .object(let kept)? = entry["attribution"],
                  let attribution = try? PurchaseAttribution(kept),
                  case .number(let started)? = entry["started_at"], let startedAt = started.wideValue else { continue }
            entries.append((member.key, attribution, startedAt))
        }
    }

    /// Keeps `attribution` for a purchase of `productId` starting `now`.
    func remember(_ attribution: PurchaseAttribution, for productId: String, now: WideInt) throws(WireError) {
        var next = entries.filter { $0.productId != productId && now.clampedSubtracting($0.startedAt) < PurchaseAttributions.lifetimeMilliseconds }
        next.append((productId, attribution, now))
        try save(next)
    }

    /// The attribution of the purchase of `productId`, taken off the record.
    func take(_ productId: String) -> PurchaseAttribution? {
        guard let entry = entries.last(where: { $0.productId == productId }) else { return nil }
        try? save(entries.filter { $0.productId != productId })
        return entry.attribution
    }

    private func save(_ next: [(productId: String, attribution: PurchaseAttribution, startedAt: WideInt)]) throws(WireError) {
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
