import PaywireAPI

/// `POST /v1/profiles/{profile_id}/identity`: the profile is identified as a customer; the
/// answer names the customer's profile from now on and what moved to it.
extension API {
    func postProfileIdentity(_ input: Operations.PostProfileIdentity.Input) async throws -> Operations.PostProfileIdentity.Output {
        let post: IdentityPost
        do {
            post = try Identity.parse(RawBody.current, pathProfileId: input.path.profileId)
        } catch {
            return .badRequest(Self.invalid(error.message))
        }
        let outcome = try await setup.store.identify(post, policy: setup.transferPolicy, now: ServerSetup.now())
        for _ in outcome.transferred { ServerMetrics.transfer("identity") }
        return .ok(.init(body: .json(.init(
            profileId: outcome.profileId, profile: try await answerProfile(outcome.profileId),
            transferred: outcome.transferred.map {
                .init(transactionId: $0.transactionId, vendorProductId: $0.vendorProductId, fromProfileId: $0.fromProfileId, toProfileId: $0.toProfileId)
            }))))
    }
}
