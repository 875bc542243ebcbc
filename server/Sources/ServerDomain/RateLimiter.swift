/// Requests per holder (a client address, an operator key, a device's credential) as token
/// buckets: each holder may take `burst` at once and `perMinute` a minute after that (a rate a
/// second is 60 times it); past it a request waits until a token is back (the `Retry-After`).
/// Pure: the caller gives the time and keeps the value (`RateGates`). At most `maxHolders` are
/// remembered: past that, the buckets that have filled up again are forgotten (a new holder gets
/// a full one anyway), and if that is not enough the older half, at once, so a flood of holders
/// costs bounded memory and amortized constant time.
package struct RateLimiter: Sendable {
    /// Tokens are counted in sixty-thousandths, so `perMinute` of them come back each ms.
    private static let unit = 60_000
    package let perMinute: Int
    package let burst: Int
    package let maxHolders: Int
    /// Tokens in units, and when they were last counted.
    private var buckets: [String: (units: Int, at: Int)] = [:]

    package init(perMinute: Int, burst: Int, maxHolders: Int = 50_000) {
        self.perMinute = max(perMinute, 1)
        self.burst = max(burst, 1)
        self.maxHolders = maxHolders
    }

    package init(perSecond: Int, burst: Int, maxHolders: Int = 50_000) {
        self.init(perMinute: perSecond * 60, burst: burst, maxHolders: maxHolders)
    }

    /// Takes a token for `holder` at `now` (ms): nil when there was one, else the seconds to wait.
    package mutating func take(_ holder: String, now: Int) -> Int? {
        var bucket = filled(holder, now: now)
        guard bucket.units >= Self.unit else {
            buckets[holder] = bucket
            return wait(missing: Self.unit - bucket.units)
        }
        bucket.units -= Self.unit
        buckets[holder] = bucket
        if buckets.count > maxHolders { prune(now: now) }
        return nil
    }

    /// The seconds `holder` would wait for a token at `now`; nil when one is there. Takes none.
    package func wait(_ holder: String, now: Int) -> Int? {
        let bucket = filled(holder, now: now)
        return bucket.units >= Self.unit ? nil : wait(missing: Self.unit - bucket.units)
    }

    private func filled(_ holder: String, now: Int) -> (units: Int, at: Int) {
        let full = burst * Self.unit
        let bucket = buckets[holder] ?? (units: full, at: now)
        return (units: min(full, bucket.units + max(0, now - bucket.at) * perMinute), at: now)
    }

    private func wait(missing units: Int) -> Int {
        max(1, (units + perMinute * 1000 - 1) / (perMinute * 1000))
    }

    private mutating func prune(now: Int) {
        let full = burst * Self.unit
        buckets = buckets.filter { $0.value.units + (now - $0.value.at) * perMinute < full }
        guard buckets.count > maxHolders / 2 else { return }
        let newest = buckets.sorted { $0.value.at > $1.value.at }.prefix(maxHolders / 2)
        buckets = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }
}
