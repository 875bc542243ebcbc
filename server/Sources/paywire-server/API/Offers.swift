import PaywireModel
import PaywireWire
import ServerDomain

/// `POST /v1/offers/sign`: the signature when the profile may have the offer, else `403
/// offer_not_eligible` saying why. Each nonce is recorded before the signature is given, so
/// no two signatures of any replica share one.
extension API {
    func signOffer(parsed: JSONValue?) async throws -> Answer {
        let request: OfferSignRequest
        do {
            request = try OfferSignRequest.decode(parsed: parsed)
        } catch {
            return .invalid(error)
        }
        guard let signer = setup.offers else {
            return .error(.notImplemented, "offers_not_configured", "this server has no --offer-key: it signs no offers")
        }
        let now = clock.nowMilliseconds()
        if let refusal = OfferEligibility.refusal(request.offerType, productId: request.productId, profile: try await profile(request.profileId), now: now) {
            return .error(.forbidden, APIErrorCode.offerNotEligible.rawValue, refusal)
        }
        let nonce = random.uuid()
        try await setup.store.recordOfferNonce(nonce, profileId: request.profileId, productId: request.productId, offerId: request.offerId, at: now)
        return .json(.ok, try signer.sign(productId: request.productId, offerId: request.offerId, applicationUsername: request.profileId,
                                          nonce: nonce, now: now))
    }
}

/// Who may have an offer, from the profile the backend knows (purchases, restores, store
/// notifications, authored profiles): the App Store's rules, narrowed to one product since the
/// server knows no subscription groups.
enum OfferEligibility {
    /// The model's offer types: the device sends the same names.
    typealias Kind = OfferType

    /// Why this profile may not have the offer; nil when it may. A promotional offer is for a
    /// profile that has or had a subscription to the product; a win-back offer for one whose
    /// subscription has ended.
    static func refusal(_ kind: Kind, productId: String, profile: BackendProfile?, now: Int) -> String? {
        guard let subscription = profile?.grants.subscriptions.first(where: { $0.id == productId })?.grant else {
            return "the profile never subscribed to '\(productId)': \(kind == .winBack ? "win-back" : "promotional") offers are for its subscribers"
        }
        if kind == .winBack, subscription.isActive(now: now) {
            return "the subscription to '\(productId)' is still active: win-back offers are for lapsed subscribers"
        }
        return nil
    }
}
