import PaywireWire

/// When a grant gives access, and which of two grants stands for one access level (or one
/// subscription product): the one rule the device's profile and the backend both judge grants
/// by, so they cannot disagree. Times are ms since the epoch.
public struct GrantStanding: Equatable, Sendable {
    /// A start in the future (a deferred or upgraded plan).
    public var startsAt: WideInt?
    /// Nil: for life.
    public var expiresAt: WideInt?
    public var isRefund: Bool
    /// The store retries a failed renewal; access lasts until `gracePeriodExpiresAt`.
    public var isInGracePeriod: Bool
    public var gracePeriodExpiresAt: WideInt?

    public init(startsAt: WideInt? = nil, expiresAt: WideInt?, isRefund: Bool = false, isInGracePeriod: Bool = false,
                gracePeriodExpiresAt: WideInt? = nil) {
        self.startsAt = startsAt
        self.expiresAt = expiresAt
        self.isRefund = isRefund
        self.isInGracePeriod = isInGracePeriod
        self.gracePeriodExpiresAt = gracePeriodExpiresAt
    }

    /// When access ends at the latest: the grace period's end while the store retries a
    /// renewal (when later than the expiry), else the expiry; nil for life.
    public var accessEnds: WideInt? {
        guard let expiresAt else { return nil }
        guard isInGracePeriod, let grace = gracePeriodExpiresAt else { return expiresAt }
        return max(expiresAt, grace)
    }

    /// Whether it gives access at `now`: not refunded, started, and before its access ends.
    public func isActive(now: WideInt) -> Bool {
        if isRefund { return false }
        if let startsAt, startsAt > now { return false }
        guard let ends = accessEnds else { return true }
        return ends > now
    }

    /// The first time after `now` at which `isActive` may change; nil when it never will.
    public func nextChange(after now: WideInt) -> WideInt? {
        guard !isRefund else { return nil }
        return [startsAt, expiresAt, isInGracePeriod ? gracePeriodExpiresAt : nil].compactMap { $0 }.filter { $0 > now }.min()
    }

    /// Whether `self` should stand instead of `other`: a grant that was not refunded beats one
    /// that was; between two of the same kind, the one whose access ends later (for life beats
    /// any date; a grace period counts).
    public func outranks(_ other: GrantStanding) -> Bool {
        if isRefund != other.isRefund { return other.isRefund }
        return (accessEnds ?? .max) > (other.accessEnds ?? .max)
    }
}
