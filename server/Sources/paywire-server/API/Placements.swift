import Foundation
import PaywireAPI
import PaywireModel

/// `GET /v1/placements/{id}`, `GET /v1/onboardings/{id}`, `GET /v1/profiles/{id}`: strong
/// ETags, `304` for a current `If-None-Match`.
extension API {
    func getPlacement(_ input: Operations.GetPlacement.Input) async throws -> Operations.GetPlacement.Output {
        guard !input.headers.xPaywireProfileId.isEmpty else { return .badRequest(Self.invalid("x-paywire-profile-id must not be empty")) }
        guard let served = setup.placements[input.path.placementId] else { return .notFound }
        if input.headers.ifNoneMatch == served.etag { return .notModified }
        return .ok(.init(headers: .init(eTag: served.etag), body: .json(served.response)))
    }

    func getOnboardingPlacement(_ input: Operations.GetOnboardingPlacement.Input) async throws -> Operations.GetOnboardingPlacement.Output {
        guard !input.headers.xPaywireProfileId.isEmpty else { return .badRequest(Self.invalid("x-paywire-profile-id must not be empty")) }
        guard let served = setup.onboardings[input.path.placementId] else { return .notFound }
        if input.headers.ifNoneMatch == served.etag { return .notModified }
        return .ok(.init(headers: .init(eTag: served.etag), body: .json(served.response)))
    }

    /// Grants from verified transactions merged with an authored profile; the ETag is the MD5
    /// of the answer's canonical JSON, so it changes exactly when the profile does.
    func getProfile(_ input: Operations.GetProfile.Input) async throws -> Operations.GetProfile.Output {
        guard !input.headers.xPaywireProfileId.isEmpty else { return .badRequest(Self.invalid("x-paywire-profile-id must not be empty")) }
        guard let profile = try await profile(input.path.profileId) else { return .notFound }
        let response = Components.Schemas.ProfileResponse(profile: try profile.wire(now: ServerSetup.now()))
        let etag = ServableBundle.etag(of: Array(try WireJSON.encoder().encode(response)))
        if input.headers.ifNoneMatch == etag { return .notModified }
        return .ok(.init(headers: .init(eTag: etag), body: .json(response)))
    }
}
