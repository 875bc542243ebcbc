/// Requests per second per holder (a client address, an operator key), as token buckets: each
/// holder may send `burst` at once and `perSecond` a second after that; past it a request waits
/// until a token is back (the `Retry-After`). Pure: the caller gives the time and keeps the value
/// (`RateGate`). At most `maxHolders` are remembered: past that, the buckets that have filled
/// up again are forgotten (a new holder gets a full one anyway), and if that is not enough the
/// older half, at once, so a flood of holders costs bounded memory and amortized constant time.
struct RateLimiter: Sendable {
    let perSecond: Int
    let burst: Int
    let maxHolders: Int
    /// Tokens in thousandths, and when they were last counted.
    private var buckets: [String: (milliTokens: Int, at: Int)] = [:]

    init(perSecond: Int, burst: Int, maxHolders: Int = 50_000) {
        self.perSecond = perSecond
        self.burst = max(burst, 1)
        self.maxHolders = maxHolders
    }

    /// Takes a token for `holder` at `now` (ms): nil when there was one, else the seconds to wait.
    mutating func take(_ holder: String, now: Int) -> Int? {
        let full = burst * 1000
        var bucket = buckets[holder] ?? (milliTokens: full, at: now)
        let elapsed = max(0, now - bucket.at)
        bucket = (milliTokens: min(full, bucket.milliTokens + elapsed * perSecond), at: now)
        guard bucket.milliTokens >= 1000 else {
            buckets[holder] = bucket
            let missing = 1000 - bucket.milliTokens
            return max(1, (missing + perSecond * 1000 - 1) / (perSecond * 1000))
        }
        bucket.milliTokens -= 1000
        buckets[holder] = bucket
        if buckets.count > maxHolders { prune(now: now) }
        return nil
    }

    private mutating func prune(now: Int) {
        let full = burst * 1000
        buckets = buckets.filter { $0.value.milliTokens + (now - $0.value.at) * perSecond < full }
        guard buckets.count > maxHolders / 2 else { return }
        let newest = buckets.sorted { $0.value.at > $1.value.at }.prefix(maxHolders / 2)
        buckets = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }
}
