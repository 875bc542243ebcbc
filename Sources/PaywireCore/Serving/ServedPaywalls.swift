import PaywireModel
import PaywireWire

/// Which served paywall a request maps to.
struct PaywallCacheKey: Hashable {
    let placementId: String
    let requestLocale: String?
    let choice: PaywallChoice
    /// Served from a fetched copy rather than the bundle.
    var remote = false
}

/// A served paywall, encoded once: alone (for events that carry it) and as a success envelope,
/// with what the core itself needs of it (a view made of it).
struct ServedPaywall {
    let paywall: [UInt8]
    let envelope: [UInt8]
    let reference: PaywallReference
    /// Its placement's cap and exclusions (`get_presentation` judges them).
    let rules: PresentationRules
    /// When the choice may change by itself (an access level expires, the install age reaches
    /// another day), in ms; `Int.max` when nothing time-dependent exists.
    let validUntil: WideInt
    /// For a paywall served from a fetched copy: which copy (fetched at, created at).
    var fetchedCopy: (WideInt, WideInt)? = nil

    func isCurrent(now: () -> WideInt, fetchedCopy copy: (WideInt, WideInt)? = nil) -> Bool {
        if let copy, let mine = fetchedCopy, mine != copy { return false }
        return validUntil == .max || now() < validUntil
    }
}

/// Paywalls already chosen and encoded, keyed by request. A served paywall is immutable, so a
/// repeated request gets the same bytes; any change to the profile or the bundle empties it,
/// since either can change the choice.
final class ServedPaywalls: ProfileObserver {
    private var entries: [PaywallCacheKey: ServedPaywall] = [:]

    /// The entry for `key` while it is current.
    func current(_ key: PaywallCacheKey, now: () -> WideInt, fetchedCopy: (WideInt, WideInt)? = nil) -> ServedPaywall? {
        guard let served = entries[key], served.isCurrent(now: now, fetchedCopy: fetchedCopy) else { return nil }
        return served
    }

    func keep(_ served: ServedPaywall, for key: PaywallCacheKey) { entries[key] = served }

    func removeAll() { entries.removeAll() }

    func profileChanged() { removeAll() }
}
