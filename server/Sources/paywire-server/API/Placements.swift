import Hummingbird
import PaywireModel

/// `GET /v1/placements/{id}`, `GET /v1/onboardings/{id}`, `GET /v1/profiles/{id}`: strong
/// ETags, `304` for a current `If-None-Match`.
extension API {
    /// A placement or onboarding as the bundle's ready answer holds it (its bytes made once).
    func getPlacement(_ served: ServableBundle.Response?, ifNoneMatch: String?) -> Answer {
        guard let served else { return .empty(.notFound) }
        if ifNoneMatch == served.etag { return .empty(.notModified, headers: [.eTag: served.etag]) }
        return .json(.ok, served.body, headers: [.eTag: served.etag])
    }

    /// Grants from verified transactions merged with an authored profile; the ETag is the MD5
    /// of the answer's bytes, written once, so it changes exactly when the profile does.
    func getProfile(_ profileId: String, ifNoneMatch: String?) async throws -> Answer {
        guard let profile = try await profile(profileId) else { return .empty(.notFound) }
        let answer = profile.answer(now: clock.nowMilliseconds())
        if ifNoneMatch == answer.etag { return .empty(.notModified, headers: [.eTag: answer.etag]) }
        return .json(.ok, answer.document, headers: [.eTag: answer.etag])
    }
}
