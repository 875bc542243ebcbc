/// Told when what a profile may be shown could have changed (identity, access, attributes,
/// cross-placement groups), so choices made for the old profile are not served again.
protocol ProfileObserver: AnyObject {
    func profileChanged()
}

/// The profile of one client: the only owner of the current profile, its persistence, the
/// rules for changing it, and the one writer of `did_load_latest_profile`.
///
/// Every change is written to storage first: when the write fails nothing changes in memory
/// either (memory never claims what the disk did not keep). Calls (`update_profile`,
/// `identify`, `logout`) fail with the error; outcomes that happened elsewhere (a purchase, a
/// backend answer) get an `error` log event naming the file, and the error back so the flow
/// can report it.
final class ProfileStore {
    private(set) var current: Profile
    private let storage: Storage
    private let sink: EventSink
    let clock: Clock
    private let log: Log
    private let observer: ProfileObserver

    /// The stored profile, adjusted to the config's `profile_id` and `customer_user_id`.
    init(config: ClientConfig, storage: Storage, sink: EventSink, clock: Clock, log: Log,
         observer: ProfileObserver) throws(WireError) {
        self.storage = storage
        self.sink = sink
        self.clock = clock
        self.log = log
        self.observer = observer
        let stored = try storage.read(Profile.storageKey).flatMap(Profile.fromRecord)
        var starting = stored ?? Profile(profileId: Profile.newProfileId(), customerUserId: nil)
        if let id = config.profileId, id != starting.profileId {
            starting = Profile(profileId: id, customerUserId: nil)
        }
        if let customer = config.customerUserId, let next = ProfileStore.identified(starting, as: customer) {
            starting = next
        }
        if starting != stored {
            starting.timestamp = clock.nowMilliseconds()
            try storage.write(Profile.storageKey, starting.record)
        }
        current = starting
    }

    var profileId: String { current.profileId }

    /// The profile as `get_profile` answers it, judged now.
    func response() -> CallResponse {
        let profile = current
        let now = clock.nowMilliseconds()
        return .success { writer in profile.write(to: &writer, now: now) }
    }

    /// Sets or (with null) removes custom attributes by `AttributeRules`.
    func updateAttributes(_ attributes: Fields) throws(WireError) {
        var next = current
        try AttributeRules.apply(attributes, to: &next.customAttributes)
        if next != current { try commit(next) }
    }

    /// Identifies the profile as the app's user `customerUserId`.
    func identify(_ customerUserId: String) throws(WireError) {
        if let next = ProfileStore.identified(current, as: customerUserId) { try commit(next) }
    }

    /// Starts a new anonymous profile.
    func logout() throws(WireError) {
        try commit(Profile(profileId: Profile.newProfileId(), customerUserId: nil))
    }

    /// Records the email an onboarding collected.
    func recordEmail(_ email: String) throws(WireError) {
        guard email != current.email else { return }
        var next = current
        next.email = email
        try commit(next)
    }

    /// Keeps the cross-placement group a choice assigned. Quiet (nothing a host shows changed),
    /// but persisted so the group survives a restart.
    func assignCrossPlacement(testId: String, group: String) throws(WireError) {
        var next = current
        next.crossPlacementAssignments[testId] = group
        try storage.write(Profile.storageKey, next.record)
        current = next
        observer.profileChanged()
    }

    /// Access granted on the device's word (a purchase or a restore the backend has not
    /// confirmed, or no backend at all): unverified until the backend answers. Each grant is
    /// the described product's access level (else `accessLevel`, else `premium`) until the
    /// store's expiry, else one period from the purchase.
    func grantLocally(_ grants: [LocalGrant]) -> WireError? {
        var next = current
        for local in grants {
            let start = local.purchasedAt ?? clock.nowMilliseconds()
            var grant = Profile.Grant(vendorProductId: local.productId, activatedAt: start,
                                      expiresAt: local.expiresAt ?? local.product?.expiry(from: start))
            grant.transactionId = local.transactionId
            next.grant(accessLevel: local.product?.accessLevel ?? local.accessLevel ?? "premium", grant,
                       isSubscription: local.product?.period != nil)
        }
        return next == current ? nil : keep(next)
    }

    /// The backend's profile for `profileId` (a `get_profile`, purchase or restore answer),
    /// applied while it is still the current profile: the backend's access is the truth, and
    /// local grants whose transaction it has not answered yet (`pending`) stay beside it.
    func applyBackend(_ snapshot: RemoteProfile.Snapshot, profileId: String, pending: Set<String>) -> WireError? {
        guard current.profileId == profileId else { return nil }
        let next = RemoteProfile.apply(snapshot, to: current, pending: pending)
        return next == current ? nil : keep(next)
    }

    /// Takes back the unverified access a transaction gave (the backend refused it without
    /// saying what the profile is).
    func revoke(transactionId: String) -> WireError? {
        var next = current
        next.accessLevels.removeAll { !$0.grant.verified && $0.grant.transactionId == transactionId }
        next.subscriptions.removeAll { !$0.grant.verified && $0.grant.transactionId == transactionId }
        return next == current ? nil : keep(next)
    }

    /// The profile after identifying as `customerUserId`, or nil when nothing changes. An
    /// anonymous profile is claimed by the customer; a different customer gets a new profile.
    static func identified(_ profile: Profile, as customerUserId: String) -> Profile? {
        switch profile.customerUserId {
        case customerUserId?: return nil
        case nil: return Profile(profileId: profile.profileId, customerUserId: customerUserId, email: profile.email)
        case _?: return Profile(profileId: Profile.newProfileId(), customerUserId: customerUserId)
        }
    }

    /// Writes, then switches: a failed write changes nothing.
    private func commit(_ changed: Profile) throws(WireError) {
        var next = changed
        next.timestamp = clock.nowMilliseconds()
        try storage.write(Profile.storageKey, next.record)
        switchTo(next)
    }

    /// Writes, then switches; a failed write changes nothing, is logged naming the file, and
    /// returned so the flow can report it.
    private func keep(_ next: Profile) -> WireError? {
        do throws(WireError) {
            try commit(next)
            return nil
        } catch {
            log(.error, "could not keep the profile: \(error.message)",
                details: [("code", .string(error.code.rawValue))] + error.details.members.map { ($0.key, $0.value) })
            return error
        }
    }

    /// The one writer of `did_load_latest_profile`.
    private func switchTo(_ next: Profile) {
        current = next
        observer.profileChanged()
        let now = clock.nowMilliseconds()
        sink.emit(Event("did_load_latest_profile") { writer in
            writer.key("profile")
            next.write(to: &writer, now: now)
        })
    }
}

/// A grant made on the device's word.
struct LocalGrant: Sendable {
    let productId: String
    /// The store's description (access level, period), when it has one.
    let product: StoreProduct?
    /// The access level the paywall names, used when the store does not describe the product.
    var accessLevel: String? = nil
    var transactionId: String? = nil
    var purchasedAt: Int? = nil
    /// The store's own expiry, when it gives one.
    var expiresAt: Int? = nil
}
