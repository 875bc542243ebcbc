import Foundation
import PaywireAPI

/// `POST /v1/offers/sign`: the signature when the profile may have the offer, else `403
/// offer_not_eligible` saying why. Each nonce is recorded before the signature is given, so
/// no two signatures of any replica share one.
extension API {
    func signOffer(_ input: Operations.SignOffer.Input) async throws -> Operations.SignOffer.Output {
        guard case .json(let request) = input.body else { return .badRequest(Self.invalid("the body must be JSON")) }
        for (name, value) in [("profile_id", request.profileId), ("vendor_product_id", request.vendorProductId), ("offer_id", request.offerId)]
            where value.isEmpty {
            return .badRequest(Self.invalid("\(name) must be a non-empty string"))
        }
        guard let signer = setup.offers else { return .serverError(statusCode: 501, .init()) }
        let kind: OfferEligibility.Kind = request.offerType == .winBack ? .winBack : .promotional
        let now = ServerSetup.now()
        if let refusal = OfferEligibility.refusal(kind, productId: request.vendorProductId, profile: try await profile(request.profileId), now: now) {
            return .forbidden(.init(body: .json(ErrorDocument("offer_not_eligible", refusal))))
        }
        let nonce = UUID().uuidString.lowercased()
        try await setup.store.recordOfferNonce(nonce, profileId: request.profileId, productId: request.vendorProductId,
                                               offerId: request.offerId, at: now)
        return .ok(.init(body: .json(try signer.sign(productId: request.vendorProductId, offerId: request.offerId,
                                                     applicationUsername: request.profileId, nonce: nonce, now: now))))
    }
}

/// Who may have an offer, from the profile the backend knows (purchases, restores, store
/// notifications, authored profiles): the App Store's rules, narrowed to one product since the
/// server knows no subscription groups.
enum OfferEligibility {
    enum Kind {
        case promotional
        case winBack
    }

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
