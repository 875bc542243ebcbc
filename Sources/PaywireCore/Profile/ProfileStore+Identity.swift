import PaywireModel
import PaywireWire

/// The backend's answer to an identify (`POST /v1/profiles/{id}/identity`): the customer's
/// profile from now on. When the customer already had another profile, the device moves to it,
/// keeping what the device itself said about the user; under the backend's `transfer` policy
/// the purchases of the profile that asked moved with it, and the profile event lists them.
extension ProfileStore {
    /// Returns the profile the device moved to, if it moved: the backend has not heard what
    /// the device said about the user under that id yet. An answer for a profile the device has
    /// left (a `logout` meanwhile) changes nothing.
    func identityAnswered(_ request: Identity.Request, answer: Result<Identity.Answer, WireError>, eventId: String,
                          trust: AnswerTrust = .notRequested) -> Profile? {
        let asked = request.profileId
        guard asked == profileId else { return nil }
        let read: Identity.Answer
        switch answer {
        case .success(let answer): read = answer
        case .failure(let error):
            log(.warn, "the backend's identity answer could not be read: the device stays on profile '\(asked)'",
                details: [("underlying_error", .string(error.code.rawValue)), ("event_id", .string(eventId))])
            return nil
        }
        if read.profileId == asked {
            _ = applyBackend(read.profile, profileId: asked, transferred: read.transferred, trust: trust)
            return nil
        }
        var next = RemoteProfile.apply(read.profile.marked(trust.verification),
                                       to: ProfileStore.joined(current, profileId: read.profileId, customerUserId: current.customerUserId),
                                       pending: awaitingBackend)
        next.answered(trust)
        log(.info, "the customer already has a profile: the device moves to it",
            details: [("from_profile_id", .string(asked)), ("profile_id", .string(read.profileId)),
                      ("transferred", .number(JSONNumber(read.transferred.count)))])
        return keepAnswer(next, transferred: read.transferred) == nil ? current : nil
    }

    /// `profile` as profile `profileId` of `customerUserId`: the same user, so what the device
    /// said about them (attributes, consent, integration ids, attributions, the analytics
    /// opt-out) stays; access and everything else the backend holds come from its answer.
    static func joined(_ profile: Profile, profileId: String, customerUserId: String?) -> Profile {
        var next = Profile(profileId: profileId, customerUserId: customerUserId)
        next.standard = profile.standard
        next.consumptionDataConsent = profile.consumptionDataConsent
        next.integrationIds = profile.integrationIds
        next.attributions = profile.attributions
        next.analyticsDisabled = profile.analyticsDisabled
        return next
    }

}
