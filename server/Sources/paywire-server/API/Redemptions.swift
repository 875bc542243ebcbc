import Foundation
import PaywireAPI
import PaywireModel

/// Redemption of web purchases made without a profile: the operator asks for a link
/// (`POST /v1/web-purchases/{checkout_session_id}/redemption`), the app redeems it for its
/// profile (`POST /v1/redemptions`). Only the token's SHA-256 is stored.
extension API {
    func issueRedemptionLink(_ input: Operations.IssueRedemptionLink.Input) async throws -> Operations.IssueRedemptionLink.Output {
        let sessionId = input.path.checkoutSessionId
        let (token, digest) = Redemption.newToken()
        let expiresAt = ServerSetup.now() + setup.redemptionTTLMillis
        switch try await setup.store.issueRedemption(checkoutSessionId: sessionId, digest: digest, expiresAt: expiresAt) {
        case .issued:
            return .ok(.init(body: .json(.init(checkoutSessionId: sessionId, token: token,
                                               url: Redemption.link(base: setup.redemptionLinkBase, token: token),
                                               expiresAt: Date(timeIntervalSince1970: Double(expiresAt) / 1000)))))
        case .unknown:
            return .notFound(.init(body: .json(ErrorDocument("unknown_web_purchase", "no completed checkout '\(sessionId)' is known (yet)"))))
        case .notRedeemable(let profileId):
            return .conflict(.init(body: .json(ErrorDocument("not_redeemable", "checkout '\(sessionId)' named its profile '\(profileId)': there is nothing to redeem"))))
        case .alreadyRedeemed(let profileId):
            return .conflict(.init(body: .json(ErrorDocument("already_redeemed", "checkout '\(sessionId)' was redeemed by profile '\(profileId)'"))))
        }
    }

    func redeemWebPurchase(_ input: Operations.RedeemWebPurchase.Input) async throws -> Operations.RedeemWebPurchase.Output {
        guard case .json(let request) = input.body else { return .badRequest(Self.invalid("the body must be JSON")) }
        guard !request.profileId.isEmpty, request.profileId.utf8.count <= 256, !request.token.isEmpty, request.token.utf8.count <= 256 else {
            return .badRequest(Self.invalid("token and profile_id must be 1 to 256 characters"))
        }
        let result: Redemption.Result
        if let digest = Redemption.digest(ofToken: request.token) {
            result = try await setup.store.redeem(digest: digest, profileId: request.profileId, now: ServerSetup.now())
        } else {
            result = .invalid
        }
        ServerMetrics.redemption(result.rawValue)
        guard let wire = Components.Schemas.RedemptionResult.ResultPayload(rawValue: result.rawValue) else {
            throw StorageProblem("redemption result '\(result.rawValue)' is not in the spec")
        }
        return .ok(.init(body: .json(.init(result: wire, profileId: request.profileId, profile: try await answerProfile(request.profileId)))))
    }
}
