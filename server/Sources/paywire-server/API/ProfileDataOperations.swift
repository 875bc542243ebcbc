import PaywireAPI

/// What the device says about a profile besides purchases: `PUT /v1/profiles/{id}/attributes`,
/// `PUT /v1/profiles/{id}/integration-ids`, `POST /v1/attribution`; `{stored}` (false: the
/// event_id was stored before), or `400` naming the bad member.
extension API {
    func putProfileAttributes(_ input: Operations.PutProfileAttributes.Input) async throws -> Operations.PutProfileAttributes.Output {
        switch try await storeProfileData(.attributes, pathProfileId: input.path.profileId) {
        case .success(let stored): return .ok(.init(body: .json(.init(stored: stored))))
        case .failure(let problem): return .badRequest(Self.invalid(problem.message))
        }
    }

    func putIntegrationIds(_ input: Operations.PutIntegrationIds.Input) async throws -> Operations.PutIntegrationIds.Output {
        switch try await storeProfileData(.integrationIdentifiers, pathProfileId: input.path.profileId) {
        case .success(let stored): return .ok(.init(body: .json(.init(stored: stored))))
        case .failure(let problem): return .badRequest(Self.invalid(problem.message))
        }
    }

    func postAttribution(_ input: Operations.PostAttribution.Input) async throws -> Operations.PostAttribution.Output {
        switch try await storeProfileData(.attribution, pathProfileId: nil) {
        case .success(let stored): return .ok(.init(body: .json(.init(stored: stored))))
        case .failure(let problem): return .badRequest(Self.invalid(problem.message))
        }
    }

    /// Reads the body's exact text (custom attribute numbers as written) and keeps it.
    private func storeProfileData(_ kind: ProfileData.Kind, pathProfileId: String?) async throws -> Result<Bool, RequestProblem> {
        let post: ProfileData.Post
        do {
            post = try ProfileData.parse(RawBody.current, kind: kind, pathProfileId: pathProfileId)
        } catch {
            return .failure(error)
        }
        return .success(try await setup.store.storeProfileData(post))
    }
}
