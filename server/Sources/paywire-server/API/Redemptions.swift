import PaywireModel
import PaywireWire
import ServerDomain

/// Redemption of web purchases made without a profile: the operator asks for a link
/// (`POST /v1/web-purchases/{checkout_session_id}/redemption`), the app redeems it for its
/// profile (`POST /v1/redemptions`). Only the token's SHA-256 is stored.
extension API {
    func issueRedemptionLink(checkoutSessionId sessionId: String) async throws -> Answer {
        let (token, digest) = Redemption.newToken(random)
        let expiresAt = clock.nowMilliseconds() + setup.redemptionTTLMillis
        switch try await setup.store.issueRedemption(checkoutSessionId: sessionId, digest: digest, expiresAt: expiresAt) {
        case .issued:
            return .json(.ok, .object([("checkout_session_id", .string(sessionId)), ("token", .string(token)),
                                       ("url", .string(Redemption.link(base: setup.redemptionLinkBase, token: token))),
                                       ("expires_at", .string(ISODate.format(milliseconds: expiresAt)))]))
        case .unknown:
            return .error(.notFound, "unknown_web_purchase", "no completed checkout '\(sessionId)' is known (yet)")
        case .notRedeemable(let profileId):
            return .error(.conflict, "not_redeemable", "checkout '\(sessionId)' named its profile '\(profileId)': there is nothing to redeem")
        case .alreadyRedeemed(let profileId):
            return .error(.conflict, "already_redeemed", "checkout '\(sessionId)' was redeemed by profile '\(profileId)'")
        }
    }

    func redeemWebPurchase(parsed: JSONValue?) async throws -> Answer {
        let request: RedemptionRequest
        do {
            request = try RedemptionRequest.decode(parsed: parsed)
        } catch {
            return .invalid(error)
        }
        let profileId = request.profileId
        let result: RedemptionResult
        if let digest = Redemption.digest(ofToken: request.token) {
            result = try await setup.store.redeem(digest: digest, profileId: profileId, now: clock.nowMilliseconds())
        } else {
            result = .invalid
        }
        ServerMetrics.redemption(result.rawValue)
        return .json(.ok, RedemptionAnswer.encode(result: result, profileId: profileId, profile: try await answerProfile(profileId).bytes))
    }
}
