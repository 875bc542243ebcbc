import Hummingbird
import PaywireModel
import PaywireWire

/// `GET /v1/placements/{id}`, `GET /v1/onboardings/{id}`, `GET /v1/profiles/{id}`: strong
/// ETags, `304` for a current `If-None-Match`.
extension API {
    /// A placement or onboarding as the bundle's ready answer holds it (its bytes made once);
    /// one the bundle lacks is a `404 not_found` naming what to ask instead (`PlacementMiss`).
    func getPlacement(_ placementId: String, _ kind: PlacementMiss.Kind, ifNoneMatch: String?) -> Answer {
        let (ofKind, ofOtherKind) = kind == .placement ? (setup.placements, setup.onboardings) : (setup.onboardings, setup.placements)
        guard let served = ofKind[placementId] else {
            return PlacementMiss(placementId: placementId, kind: kind, ids: ofKind.keys.sorted(), isOtherKind: ofOtherKind[placementId] != nil).answer
        }
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

/// Why a device route has no placement of that id, in words that name the fix: the id the
/// bundle most likely meant (the library's own rule, `NearestName`, so online and offline say
/// the same), or the other route when the id is the other kind's (an onboarding asked for as a
/// paywall placement).
struct PlacementMiss {
    enum Kind: Equatable {
        case placement, onboarding

        var route: String { self == .placement ? "/v1/placements" : "/v1/onboardings" }
        var name: String { self == .placement ? "paywall placement" : "onboarding" }
        var withArticle: String { self == .placement ? "a paywall placement" : "an onboarding" }
        var other: Kind { self == .placement ? .onboarding : .placement }
    }

    let placementId: String
    let kind: Kind
    /// The ids of `kind` the bundle has, sorted.
    let ids: [String]
    /// Whether the bundle has `placementId` as the other kind.
    let isOtherKind: Bool

    var answer: Answer {
        var extra: [(String, JSONValue)] = [("placement_id", .string(placementId))]
        var message = "the bundle has no \(kind.name) '\(placementId)'"
        if isOtherKind {
            message += ": it is \(kind.other.withArticle), served at \(kind.other.route)/\(placementId)"
        } else if let meant = NearestName.suggestion(for: placementId, among: ids) {
            message += ": did you mean '\(meant)'?"
            extra.append(("did_you_mean", .string(meant)))
        }
        return .error(.notFound, "not_found", message, extra: extra)
    }
}
