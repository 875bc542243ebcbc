import PaywireModel
import PaywireWire

/// The backend's profile coming in: fetched (`ProfileFetch`) and merged while it is still the
/// current profile. The backend's access is the truth; the device's own grants whose
/// transactions it has not answered yet stand beside it until it does.
extension ProfileStore {
    /// Fetches the backend's profile and merges it. `then` hears why nothing usable came (nil
    /// when the profile was merged, or the backend had nothing new, or the app moved to another
    /// profile meanwhile), once, later. Without a backend, nothing is asked. A failure asks the
    /// store for offline access (`askStoreForAccess`) unless `asksStoreOnFailure` is false (the
    /// start, which asked it already).
    func refreshFromBackend(asksStoreOnFailure: Bool = true, then: @escaping (WireError?) -> Void) {
        guard let fetch else { return }
        let profileId = self.profileId
        // The reply holds `self` and reaches the fetch through it: the fetch keeps this closure
        // until its answer, or until the client's `tearDown()` drops it.
        fetch.fetch(profileId) { [self] outcome in
            switch outcome {
            case .fetched(let snapshot, let etag, let trust):
                if let error = applyBackend(snapshot, profileId: profileId, trust: trust) { return then(error) }
                // An answer whose signature failed is never the one a 304 may later confirm.
                if self.profileId == profileId && trust.verification != .failed { self.fetch?.keep(etag: etag, for: profileId) }
                then(nil)
            case .nothingNew(let trust):
                then(backendConfirmed(profileId: profileId, trust: trust))
            case .abandoned:
                then(nil)
            case .failed(let error):
                if asksStoreOnFailure { askStoreForAccess(reason: "profile_fetch_failed") }
                then(error)
            }
        }
    }

    /// A refresh nobody waits for (`reason`: start, app_did_become_active, access_time_passed):
    /// a failure is logged. Nothing without a backend, and nothing new while this profile's
    /// fetch is in flight.
    func refreshInBackground(reason: String) {
        guard let fetch, !fetch.isFetching(profileId) else { return }
        let log = self.log
        refreshFromBackend(asksStoreOnFailure: reason != "start") { failure in
            guard let failure else { return }
            log(.warn, "profile refresh (\(reason)) failed: \(failure.message)",
                details: [("reason", .string(reason)), ("underlying_error", .string(failure.code.rawValue))])
        }
    }

    /// A transaction was kept for the backend: its local grant stands until the backend answers.
    func awaitBackend(_ transactionId: String) { awaitingBackend.insert(transactionId) }

    /// The backend answered a transaction (or it could not be kept for it after all).
    func backendAnswered(_ transactionId: String) { awaitingBackend.remove(transactionId) }
}
