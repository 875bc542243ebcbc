import PaywireModel
import PaywireWire

/// `analytics`: how records are kept and delivered. Every member is optional; the defaults
/// are what a production app wants, and the ranges keep a typo from disabling delivery.
struct AnalyticsConfig: Sendable {
    static let knownKeys: Set<String> = [
        "max_queued", "max_bytes", "flush_interval_ms", "flush_at", "exposure_flush_delay_ms",
        "batch_max_records", "batch_max_bytes", "retry_min_ms", "retry_max_ms", "close_flush_ms",
    ]
    /// Records held at most; past it, eviction (plain analytics first, money never).
    var maxQueued = 10_000
    /// Bytes held at most, likewise.
    var maxBytes = 10 << 20
    /// A batch leaves at least this often while records wait.
    var flushIntervalMilliseconds: WideInt = 10_000
    /// A batch leaves at once when this many records wait.
    var flushAt = 20
    /// How soon after an exposure (`paywall_shown`, `onboarding_shown`) a batch leaves; at
    /// most `exposureFlushesPerMinute` such early batches a minute.
    var exposureFlushDelayMilliseconds: WideInt = 1000
    static let exposureFlushesPerMinute = 5
    var batchMaxRecords = 100
    var batchMaxBytes = 500_000
    /// Backoff after a failed batch: full jitter between `retryMin` and an exponentially
    /// growing ceiling capped at `retryMax`.
    var retryMinMilliseconds: WideInt = 1000
    var retryMaxMilliseconds: WideInt = 300_000
    /// How long `paywire_client_free` may spend sending a last batch (built-in transport).
    var closeFlushMilliseconds: WideInt = 500
    /// Keys this version does not know and no near miss of a known one: the answer's warnings.
    var unknownKeys: [String] = []

    init() {}

    init(_ fields: Fields) throws(WireError) {
        maxQueued = try fields.optionalInt("max_queued", in: 100...1_000_000) ?? maxQueued
        // At most 1 GiB: the queue's byte count (this, plus one record and the money records that
        // are never evicted) stays within `Int` on a 32-bit target.
        maxBytes = try fields.optionalInt("max_bytes", in: (64 << 10)...(1 << 30)) ?? maxBytes
        flushIntervalMilliseconds = try fields.optionalWide("flush_interval_ms", in: 10...3_600_000) ?? flushIntervalMilliseconds
        flushAt = try fields.optionalInt("flush_at", in: 1...100) ?? flushAt
        exposureFlushDelayMilliseconds = try fields.optionalWide("exposure_flush_delay_ms", in: 0...60_000) ?? exposureFlushDelayMilliseconds
        batchMaxRecords = try fields.optionalInt("batch_max_records", in: 1...100) ?? batchMaxRecords
        batchMaxBytes = try fields.optionalInt("batch_max_bytes", in: 1024...500_000) ?? batchMaxBytes
        retryMinMilliseconds = try fields.optionalWide("retry_min_ms", in: 10...60_000) ?? retryMinMilliseconds
        retryMaxMilliseconds = try fields.optionalWide("retry_max_ms", in: retryMinMilliseconds...3_600_000) ?? retryMaxMilliseconds
        closeFlushMilliseconds = try fields.optionalWide("close_flush_ms", in: 0...5000) ?? closeFlushMilliseconds
        unknownKeys = try fields.unknownKeysRefusingNearMisses(AnalyticsConfig.knownKeys, kind: "config")
    }
}

#if DEBUG
// Tests compare these; the release library never does and leaves their == out (20 KB in all).
extension AnalyticsConfig: Equatable {}
#endif
