import PaywireModel
import PaywireWire

/// The backend's answer to an identify (`POST /v1/profiles/{id}/identity`): the customer's
/// profile from now on. When the customer already had another profile, the device moves to it,
/// keeping what the device itself said about the user; under the backend's `transfer` policy
/// the purchases of the profile that asked moved with it, and the profile event lists them.
extension ProfileStore {
    /// Returns the profile the device moved to, if it moved: the backend has not heard what
    /// the device said about the user under that id yet.
    func identityAnswered(_ record: OutboxRecord, response: HTTPResponse) -> Profile? {
        guard case .object(let sent)? = try? JSONParser.parse(record.body), case .string(let asked)? = sent["profile_id"] else { return nil }
        guard asked == profileId else { return nil }
        let answer: (profileId: String, snapshot: RemoteProfile.Snapshot, transferred: [PurchaseTransfer])
        do throws(WireError) {
            answer = try ProfileStore.identityAnswer(response.body)
        } catch {
            log(.warn, "the backend's identity answer could not be read: the device stays on profile '\(asked)'",
                details: [("underlying_error", .string(error.code.rawValue)), ("event_id", .string(record.eventId))])
            return nil
        }
        if answer.profileId == asked {
            _ = applyBackend(answer.snapshot, profileId: asked, transferred: answer.transferred)
            return nil
        }
        let next = RemoteProfile.apply(answer.snapshot, to: ProfileStore.joined(current, profileId: answer.profileId, customerUserId: current.customerUserId), pending: awaitingBackend)
        log(.info, "the customer already has a profile: the device moves to it",
            details: [("from_profile_id", .string(asked)), ("profile_id", .string(answer.profileId)),
                      ("transferred", .number(JSONNumber(answer.transferred.count)))])
        return keepAnswer(next, transferred: answer.transferred) == nil ? current : nil
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

    /// `IdentityResponse {profile_id, profile, transferred}`.
    static func identityAnswer(_ body: [UInt8]) throws(WireError) -> (profileId: String, snapshot: RemoteProfile.Snapshot, transferred: [PurchaseTransfer]) {
        guard case .object(let document)? = try? JSONParser.parse(body) else {
            throw WireError(.decodingFailed, "the identity answer is not a JSON object")
        }
        guard case .string(let profileId)? = document["profile_id"], !profileId.isEmpty, profileId.utf8.count <= 256 else {
            throw WireError(.decodingFailed, "the identity answer has no profile_id", details: JSONObject([("field", .string("profile_id"))]))
        }
        guard case .object(let profile)? = document["profile"] else {
            throw WireError(.decodingFailed, "the identity answer has no profile", details: JSONObject([("field", .string("profile"))]))
        }
        return (profileId, try RemoteProfile.parse(profile: profile), PurchaseTransfer.list(document["transferred"]))
    }
}
