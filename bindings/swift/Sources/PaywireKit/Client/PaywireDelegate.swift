/// Hears the latest profile, as the seeds' `AdaptyDelegate` does: once when set (if the client
/// has one), then after each change (a purchase, a restore, a refresh, the backend's answer).
///
/// Called on the main actor, in the order the library sent the profiles, each profile once; a
/// controller's action that changed the profile (a purchase, a restore) returns after this
/// delegate heard the new one. The client holds its delegate weakly.
@MainActor
public protocol PaywireDelegate: AnyObject {
    /// The user's current profile: access levels, subscriptions, attributes.
    func didLoadLatestProfile(_ profile: Profile)
}
