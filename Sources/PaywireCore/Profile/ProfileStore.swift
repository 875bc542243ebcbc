import PaywireModel
import PaywireWire

/// Told when what a profile may be shown could have changed (identity, access, attributes,
/// cross-placement groups), so choices made for the old profile are not served again.
protocol ProfileObserver: AnyObject {
    func profileChanged()
}

/// The profile of one client: the only owner of the current profile, its persistence, the
/// rules for changing it, the one writer of `did_load_latest_profile`, and the one door by which
/// the backend's profile comes in (`ProfileStore+Backend.swift`).
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
    private let clock: Clock
    /// New profiles' ids.
    private let random: RandomSource
    let log: Log
    private let observer: ProfileObserver
    /// The time access is judged by (the backend's, once it has answered).
    private let accessClock: AccessClock
    /// The backend's profile; nil without a transport.
    let fetch: ProfileFetch?
    /// The store's word while the backend is silent (`ProfileStore+Offline`); nil without a transport.
    let offline: OfflineAccess?
    /// How many answers about the profile the backend gave in this run (offline access applies
    /// the store's answer only when none came since it asked).
    private(set) var backendAnswers = 0
    /// `offline_access_max_age_ms`, given to every profile this store keeps.
    private let offlineAccessMaxAge: WideInt
    /// The alarm set for the profile's next change in time.
    private var accessAlarm: UInt64?
    /// Which grants were active in the profile last emitted, so an alarm emits only a change.
    private var lastActivity: [String] = []
    /// Transactions kept for the backend and not answered yet: their local grants stand beside
    /// the backend's profile until it answers them.
    var awaitingBackend = Set<String>()
    /// The config's `customer_user_id` identified the stored profile: the backend is still to
    /// hear of it (the client keeps the identity record once its outbox is open).
    private(set) var identifiedAtStart = false
    /// `response_verification.mode`: how the stored profile is judged against its signature.
    let verificationMode: VerificationConfig.Mode

    /// The stored profile, judged against the signature kept beside it (`StoredProfileCheck`;
    /// `verifier` checks it), adjusted to the config's `profile_id` and `customer_user_id`.
    init(config: ClientConfig, storage: Storage, sink: EventSink, clock: Clock, random: RandomSource, accessClock: AccessClock, log: Log,
         observer: ProfileObserver, fetch: ProfileFetch?, offline: OfflineAccess? = nil, verifier: ResponseVerifier? = nil) throws(WireError) {
        verificationMode = verifier?.mode ?? .disabled
        self.storage = storage
        self.offline = offline
        offlineAccessMaxAge = config.offlineAccessMaxAgeMilliseconds
        self.sink = sink
        self.clock = clock
        self.random = random
        self.log = log
        self.observer = observer
        self.fetch = fetch
        var stored = try storage.read(Profile.storageKey).flatMap(Profile.fromRecord)
        var signedAt: WideInt?
        if let read = stored {
            let checked = StoredProfileCheck.check(read, mode: verificationMode) { verifier?.holds($0) ?? false }
            stored = checked.profile
            signedAt = checked.signedAt
            ProfileStore.report(checked.uncovered, mode: verificationMode, what: "the profile kept in storage_dir", log: log)
        }
        var starting = stored ?? Profile(profileId: random.uuidV4(), customerUserId: nil)
        if let id = config.profileId, id != starting.profileId {
            starting = Profile(profileId: id, customerUserId: nil)
        }
        if let customer = config.customerUserId, let next = ProfileStore.identified(starting, as: customer, newProfileId: random.uuidV4) {
            starting = next
            identifiedAtStart = true
        }
        if starting != stored {
            starting.timestamp = clock.nowMilliseconds()
            try storage.write(Profile.storageKey, starting.record)
        }
        starting.offlineAccessMaxAge = offlineAccessMaxAge
        current = starting
        self.accessClock = accessClock
        accessClock.raiseFloor(to: max(starting.lastBackendTime, signedAt ?? 0))
        if let signedAt { verifier?.heard(signedAt) }
    }

    /// Once the outbox was read (the transactions still waiting for the backend are known): the
    /// stored grants on the device's word that no transaction waits for any more are judged
    /// (`StoredProfileCheck.deviceGrants`).
    func settleDeviceGrants() {
        let checked = StoredProfileCheck.deviceGrants(current, pending: awaitingBackend, mode: verificationMode)
        guard !checked.uncovered.isEmpty else { return }
        ProfileStore.report(checked.uncovered, mode: verificationMode, what: "the device's grants kept in storage_dir", log: log)
        _ = keep(checked.profile)
    }

    /// A log event naming what no signature covers: dropped (enforced) or marked failed.
    private static func report(_ uncovered: [String], mode: VerificationConfig.Mode, what: String, log: Log) {
        guard !uncovered.isEmpty else { return }
        let enforced = mode == .enforced
        log(enforced ? .error : .warn,
            "\(what) grants more than a signature of the backend covers: \(uncovered.joined(separator: ", ")) "
                + (enforced ? "dropped" : "marked verification failed"),
            details: [("uncovered", .array(uncovered.map { .string($0) })), ("mode", .string(mode.rawValue))])
    }

    var profileId: String { current.profileId }

    /// Now, as access is judged: pass it to `Profile.write`.
    func accessNow() -> WideInt { accessClock.now() }

    /// The profile as `get_profile` answers it, judged now.
    func response() -> CallResponse {
        let profile = current
        let now = accessNow()
        return .success { writer in profile.write(to: &writer, now: now) }
    }

    /// Changes the profile by `change` (which throws when a rule refuses the change). When it
    /// changed, `beforeKeeping(old, next)` runs first (it keeps the outbox record the change
    /// needs), then the profile is written: a failure in either leaves the profile as it was.
    func update(_ change: (inout Profile) throws(WireError) -> Void,
                beforeKeeping: (_ old: Profile, _ next: Profile) throws(WireError) -> Void) throws(WireError) {
        var next = current
        try change(&next)
        guard next != current else { return }
        try beforeKeeping(current, next)
        try commit(next)
    }

    /// `update_profile {...}` by `ProfileUpdate`'s rules, judged by this store's clock (a
    /// birthday cannot be in the future), kept as `update` keeps a change.
    func apply(_ update: Fields, beforeKeeping: (_ old: Profile, _ next: Profile) throws(WireError) -> Void) throws(WireError) {
        let now = clock.nowMilliseconds()
        try self.update({ (profile: inout Profile) throws(WireError) in try ProfileUpdate.apply(update, to: &profile, now: now) },
                        beforeKeeping: beforeKeeping)
    }

    /// Identifies the profile as the app's user `customerUserId`. When that changes the
    /// profile, `beforeKeeping(next)` runs first (it keeps the identity record for the backend):
    /// a failure in it leaves the profile as it was.
    /// Returns whether the profile changed (false: it already was that customer's).
    @discardableResult
    func identify(_ customerUserId: String, beforeKeeping: (_ next: Profile) throws(WireError) -> Void) throws(WireError) -> Bool {
        guard let next = ProfileStore.identified(current, as: customerUserId, newProfileId: random.uuidV4) else { return false }
        try beforeKeeping(next)
        try commit(next)
        return true
    }

    /// Starts a new anonymous profile.
    func logout() throws(WireError) {
        var next = Profile(profileId: random.uuidV4(), customerUserId: nil)
        // The opt-out is the device user's choice, not the account's: a new profile keeps it.
        next.analyticsDisabled = current.analyticsDisabled
        try commit(next)
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
        try write(&next)
        current = next
        observer.profileChanged()
    }

    /// Access granted on the device's word (a purchase or a restore the backend has not
    /// confirmed, or no backend at all), as `AccessRules` decided it: unverified until the
    /// backend answers. A decision's note (a product that grants less than expected) is logged.
    func grantLocally(_ decisions: [AccessDecision]) -> WireError? {
        var next = current
        for decision in decisions {
            if let (id, grant) = decision.accessLevel { Profile.merge(grant, as: id, into: &next.accessLevels) }
            if let (id, grant) = decision.subscription { Profile.merge(grant, as: id, into: &next.subscriptions) }
            if let purchase = decision.nonSubscription { next.record(purchase) }
            if let note = decision.note { log(.warn, note) }
        }
        return next == current ? nil : keep(next)
    }

    /// The backend's profile for `profileId` (a `get_profile`, purchase or restore answer),
    /// applied while it is still the current profile: the backend's access is the truth, and
    /// local grants whose transaction it has not answered yet (`awaitingBackend`) stay beside it.
    /// `transferred` names the purchases this answer moved here (a restore under the backend's
    /// transfer policy): its profile event lists them, even when the access it shows is the same.
    /// `trust` says how its signature was judged: its grants are marked with it, and a verified
    /// answer is kept beside the profile to be checked again when it is read back.
    func applyBackend(_ snapshot: RemoteProfile.Snapshot, profileId: String, transferred: [Transfer] = [],
                      trust: AnswerTrust = .notRequested) -> WireError? {
        guard current.profileId == profileId else { return nil }
        var next = RemoteProfile.apply(snapshot.marked(trust.verification), to: current, pending: awaitingBackend)
        next.answered(trust)
        return keepAnswer(next, transferred: transferred)
    }

    /// The backend answered about `profileId` without a new profile (304, 404): its grants
    /// are trusted again from now, and offline grants give way to them. A verified 304 for the
    /// answer kept is kept beside it (`Profile.confirmed`).
    func backendConfirmed(profileId: String, trust: AnswerTrust = .notRequested) -> WireError? {
        guard current.profileId == profileId else { return nil }
        var next = OfflineAccessRules.removed(from: current)
        next.confirmed(trust)
        return keepAnswer(next)
    }

    /// The store's current entitlements, while the backend has not answered: offline grants
    /// (`OfflineAccessRules.replace`), never kept on disk.
    func applyOffline(_ decisions: [AccessDecision]) -> WireError? {
        let next = OfflineAccessRules.replace(in: current, with: decisions, now: accessNow())
        return next == current ? nil : keep(next)
    }

    /// Takes back the unverified access a transaction gave (the backend refused it without
    /// saying what the profile is).
    func revoke(transactionId: String) -> WireError? {
        var next = current
        next.accessLevels.removeAll { !$0.grant.verified && $0.grant.transactionId == transactionId }
        next.subscriptions.removeAll { !$0.grant.verified && $0.grant.transactionId == transactionId }
        for index in next.nonSubscriptions.indices {
            next.nonSubscriptions[index].purchases.removeAll { !$0.verified && $0.purchaseId == transactionId }
        }
        next.nonSubscriptions.removeAll { $0.purchases.isEmpty }
        return next == current ? nil : keep(next)
    }

    /// The profile after identifying as `customerUserId`, or nil when nothing changes. An
    /// anonymous profile is claimed by the customer; a different customer gets a new profile.
    static func identified(_ profile: Profile, as customerUserId: String, newProfileId: () -> String) -> Profile? {
        switch profile.customerUserId {
        case customerUserId?: return nil
        case nil:
            // The same profile, claimed: what the device said about it stays.
            return joined(profile, profileId: profile.profileId, customerUserId: customerUserId)
        case _?:
            var next = Profile(profileId: newProfileId(), customerUserId: customerUserId)
            next.analyticsDisabled = profile.analyticsDisabled
            return next
        }
    }

    /// Keeps `answered`, the profile as a backend answer made it, dated now (its grants count
    /// from this answer): a changed profile (or one that says what moved) as every change; an
    /// unchanged one quietly (only the answer's time is new), then judged, since trust that had
    /// ended may be back.
    func keepAnswer(_ answered: Profile, transferred: [Transfer] = []) -> WireError? {
        backendAnswers += 1
        // A 304 cannot cover a profile whose check failed (it only confirms an answer already
        // kept): after a failure the next fetch asks for the whole profile, so the next verified
        // answer restores it even when nothing changed on the backend.
        if answered.verification == .failed { fetch?.forgetETag(of: answered.profileId) }
        var next = answered
        next.backendAnsweredAt = accessNow()
        if next != current || !transferred.isEmpty { return keep(next, transferred: transferred) }
        do throws(WireError) {
            try write(&next)
        } catch {
            return notKept(error)
        }
        current = next
        judgeAccess()
        return nil
    }

    /// Writes, then switches: a failed write changes nothing.
    private func commit(_ changed: Profile, transferred: [Transfer] = []) throws(WireError) {
        var next = changed
        next.timestamp = clock.nowMilliseconds()
        next.offlineAccessMaxAge = offlineAccessMaxAge
        try write(&next)
        switchTo(next, transferred: transferred)
    }

    /// Keeps `profile` on disk, with the last time the backend said it was (the next run's
    /// floor for access time).
    private func write(_ profile: inout Profile) throws(WireError) {
        if let time = accessClock.lastBackendTime { profile.lastBackendTime = time }
        try storage.write(Profile.storageKey, profile.record)
    }

    /// Writes, then switches; a failed write changes nothing, is logged naming the file, and
    /// returned so the flow can report it.
    func keep(_ next: Profile, transferred: [Transfer] = []) -> WireError? {
        do throws(WireError) {
            try commit(next, transferred: transferred)
            return nil
        } catch {
            return notKept(error)
        }
    }

    /// A profile that could not be kept: logged naming the file, and returned for the flow.
    private func notKept(_ error: WireError) -> WireError {
        log(.error, "could not keep the profile: \(error.message)", details: error.logDetails)
        return error
    }

    /// The one writer of `did_load_latest_profile`.
    private func switchTo(_ next: Profile, transferred: [Transfer]) {
        current = next
        observer.profileChanged()
        emit(now: accessNow(), transferred: transferred)
    }

    /// A plain snapshot may give its place to a newer one in a full queue; one that says what
    /// moved is kept, since no later snapshot repeats it.
    private func emit(now: WideInt, transferred: [Transfer] = []) {
        let profile = current
        lastActivity = ProfileStore.activity(profile, now: now)
        sink.emit(Event("did_load_latest_profile", retention: transferred.isEmpty ? .latestState : .kept) { writer in
            writer.key("profile")
            profile.write(to: &writer, now: now)
            transferred.writeMember(to: &writer)
        })
        setNextAccessAlarm(now: now)
    }

    // MARK: - Access that changes with time

    /// The current profile as a `did_load_latest_profile` event, whether or not it changed: a
    /// host that attaches (a new client, an event handler set) starts from the state, not from
    /// the next change.
    func emitSnapshot() { emit(now: accessNow()) }

    /// A grant's time came (or the clock moved): emits the profile when what is active changed,
    /// and sets the alarm for the next change. Returns whether it changed.
    @discardableResult
    func judgeAccess() -> Bool {
        let now = accessNow()
        guard ProfileStore.activity(current, now: now) != lastActivity else {
            setNextAccessAlarm(now: now)
            return false
        }
        observer.profileChanged()
        emit(now: now)
        return true
    }

    /// A grant's time came and changed what is active: the store may have renewed or ended it
    /// meanwhile, which only the backend knows.
    private func accessTimeCame() {
        if judgeAccess() { refreshInBackground(reason: "access_time_passed") }
    }

    private func setNextAccessAlarm(now: WideInt) {
        if let accessAlarm { accessClock.cancelAlarm(accessAlarm) }
        accessAlarm = current.nextAccessChange(after: now).map { time in
            accessClock.setAlarm(at: time) { [self] in self.accessTimeCame() }
        }
    }

    /// The ids of the grants active at `now`, as a comparable signature.
    private static func activity(_ profile: Profile, now: WideInt) -> [String] {
        profile.accessLevels.filter { profile.givesAccess($0.grant, now: now) }.map { "a:" + $0.id }
            + profile.subscriptions.filter { profile.givesAccess($0.grant, now: now) }.map { "s:" + $0.id }
    }
}
