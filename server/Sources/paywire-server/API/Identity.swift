import HTTPTypes
import PaywireModel
import PaywireWire
import ServerDomain

/// `POST /v1/profiles/{profile_id}/identity`: the profile is identified as a customer; the
/// answer names the customer's profile from now on and what moved to it. When the server proves
/// identities, the claim needs the app's backend's token for that customer.
extension API {
    func postIdentity(parsed: JSONValue?, profileId: String, from address: String) async throws -> Answer {
        let request: Identity.Request
        do {
            request = try Identity.Request.decode(parsed: parsed, pathProfileId: profileId)
        } catch {
            return .invalid(error)
        }
        // Before anything is met or moved: an unproven claim changes no profile.
        if let verifier = setup.identity,
           let refusal = verifier.refusal(token: request.identityToken, customerUserId: request.customerUserId, now: clock.nowSeconds()) {
            logger.notice("an identity was not verified", metadata: ["reason": .string(refusal)])
            return .error(.unprocessableContent, APIErrorCode.identityUnverified.rawValue, refusal)
        }
        // An identity may hand the customer's profile over with a new credential: an address
        // out of new credentials waits before anything is met or moved.
        if let wait = limits.mintWait(from: address) { return ProfileDoor.TooManyNew(waitSeconds: wait).answer }
        let outcome = try await setup.store.identify(request, policy: setup.transferPolicy, now: clock.nowMilliseconds())
        for _ in outcome.transferred { ServerMetrics.transfer(TransferReason.identity.rawValue) }
        var answer = Answer.json(.ok, Identity.Answer.encode(profileId: outcome.profileId, profile: try await answerProfile(outcome.profileId),
                                                             transferred: outcome.transferred))
        // The device moves to the customer's profile: it gets a credential of its own for it
        // (the claim was allowed, proven when the server checks identities).
        if !Identity.same(outcome.profileId, profileId), let name = HTTPField.Name(ProfileCredentials.header) {
            answer.headers[name] = try await profileDoor(from: address).handOver(outcome.profileId)
        }
        return answer
    }
}
