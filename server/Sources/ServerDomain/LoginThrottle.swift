/// How often one client address may fail to sign in: after `limit` failures in any `window`
/// (10 in 15 minutes) it waits until the oldest of them leaves the window; a success costs
/// nothing. Pure: the caller gives the time and keeps the value (`LoginGate`). At most
/// `maxAddresses` are remembered: past that the older half is forgotten at once, so a flood of
/// addresses costs bounded memory and amortized constant time.
package struct LoginThrottle: Sendable {
    package enum Decision: Equatable, Sendable {
        case allow
        /// Refused: try again in this many seconds (the `Retry-After`).
        case wait(seconds: Int)
    }

    package let limit: Int
    package let windowMillis: Int
    package let maxAddresses: Int
    private var failures: [String: [Int]] = [:]

    package init(limit: Int = 10, windowMillis: Int = 15 * 60_000, maxAddresses: Int = 10_000) {
        self.limit = limit
        self.windowMillis = windowMillis
        self.maxAddresses = maxAddresses
    }

    /// Whether `address` may try at `now` (ms).
    package mutating func admits(_ address: String, now: Int) -> Decision {
        let recent = (failures[address] ?? []).filter { now - $0 < windowMillis }
        failures[address] = recent.isEmpty ? nil : recent
        guard recent.count >= limit, let oldest = recent.first else { return .allow }
        return .wait(seconds: max(1, (oldest + windowMillis - now + 999) / 1000))
    }

    /// A failed attempt from `address` at `now`.
    package mutating func failed(_ address: String, now: Int) {
        failures[address, default: []].append(now)
        if failures.count > maxAddresses { forgetOlderHalf() }
    }

    private mutating func forgetOlderHalf() {
        let newest = failures.sorted { ($0.value.last ?? 0) > ($1.value.last ?? 0) }.prefix(max(1, maxAddresses / 2))
        failures = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }
}
