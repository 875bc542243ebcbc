/// Told when what a profile may be shown could have changed (identity, access, attributes,
/// cross-placement groups), so choices made for the old profile are not served again.
protocol ProfileObserver: AnyObject {
    func profileChanged()
}

/// The profile of one client: the only owner of the current profile, its persistence, the
/// rules for changing it, and the one writer of `did_load_latest_profile`.
///
/// Two ways to commit a change: calls that can fail (`update_profile`, `identify`, `logout`)
/// write to storage first and change nothing when the write fails; outcomes that already
/// happened (a purchase, a backend answer) are kept even when the write fails, with an `error`
/// log event, because the host must hear about them.
final class ProfileStore {
    private(set) var current: Profile
    private let storage: Storage
    private let sink: EventSink
    private let clock: Clock
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
        if starting != stored { try storage.write(Profile.storageKey, starting.record) }
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

    /// Access bought: the product's access level (`premium` when the store does not describe
    /// it) until `expiresAt`, else one period from now.
    func grantPurchase(_ productId: String, product: StoreProduct?, expiresAt: Int?) {
        let now = clock.nowMilliseconds()
        var next = current
        next.grant(accessLevel: product?.accessLevel ?? "premium",
                   Profile.Grant(vendorProductId: productId, activatedAt: now, expiresAt: expiresAt ?? product?.expiry(from: now)),
                   isSubscription: product?.period != nil)
        keep(next)
    }

    /// Access restored for each product the store described.
    func grantRestored(_ products: [StoreProduct]) {
        let now = clock.nowMilliseconds()
        var next = current
        for product in products {
            next.grant(accessLevel: product.accessLevel,
                       Profile.Grant(vendorProductId: product.vendorProductId, activatedAt: now, expiresAt: product.expiry(from: now)),
                       isSubscription: product.period != nil)
        }
        if next != current { keep(next) }
    }

    /// What the backend knows of `profileId`, merged in while it is still the current profile.
    func mergeRemote(_ snapshot: RemoteProfile.Snapshot, profileId: String) {
        guard current.profileId == profileId else { return }
        let next = RemoteProfile.merge(snapshot, into: current)
        if next != current { keep(next) }
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
    private func commit(_ next: Profile) throws(WireError) {
        try storage.write(Profile.storageKey, next.record)
        switchTo(next)
    }

    /// Switches, then writes: a failed write is reported, the outcome still stands.
    private func keep(_ next: Profile) {
        do throws(WireError) {
            try storage.write(Profile.storageKey, next.record)
        } catch {
            log(.error, "could not persist the profile: \(error.message)")
        }
        switchTo(next)
    }

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
