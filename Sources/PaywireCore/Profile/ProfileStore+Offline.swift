import PaywireModel
import PaywireWire

/// Offline access, bounded: while the backend has not answered (a cold start offline, a
/// profile fetch that failed), the store's current entitlements may add grants by the map the
/// device last received; the backend's own grants keep giving access up to the configured age
/// (`Profile.givesAccess`). The backend's next answer replaces the offline grants (`applyBackend`,
/// `backendConfirmed`).
extension ProfileStore {
    /// Asks the store what the user owns now (`reason`: start, profile_fetch_failed). Its answer
    /// is applied only while this is the profile asked for and the backend has not answered
    /// since the latest ask. Nothing without a transport.
    func askStoreForAccess(reason: String) {
        guard let offline else { return }
        offline.ask(for: profileId, backendAnswers: backendAnswers, reason: reason) { [self] decisions in
            guard let asked = self.offline?.latestAsk else { return }
            guard asked.profileId == self.profileId, asked.backendAnswers == self.backendAnswers else {
                self.log(.debug, "the store's current entitlements came after the backend's answer: the backend's stands",
                         details: [("reason", .string(reason))])
                return
            }
            _ = self.applyOffline(decisions)
        }
    }
}
