import PaywireModel
import PaywireWire

/// Offers signed by the backend before the store is asked, for `make_purchase` and for
/// paywall views alike.
extension Purchases {
    /// Asks the backend to sign `offer` for this profile's purchase of `bought`; `reply` gets the
    /// product carrying the signature, or the error that fails the purchase (never now: the
    /// answer always comes later, so callers have promised theirs first).
    func sign(_ offer: PurchaseOffer, for bought: ViewProduct, reply: @escaping (Result<ViewProduct, WireError>) -> Void) {
        guard let backend else {
            reply(.failure(Purchases.offerNeedsBackend(offer, productId: bought.productId)))
            return
        }
        let profileId = profiles.profileId
        let productId = bought.productId
        backend.send(method: "POST", url: backend.url(route: "offers/sign"), headers: [("accept", "application/json")],
                     body: OfferSigning.body(profileId: profileId, productId: productId, offer: offer), profileId: profileId) { outcome in
            reply(OfferSigning.interpret(outcome, offer: offer, productId: productId, profileId: profileId).map { bought.with($0) })
        }
    }

    /// Without a transport nothing can sign an offer, and the store refuses an unsigned one.
    static func offerNeedsBackend(_ offer: PurchaseOffer, productId: String) -> WireError {
        WireError(.invalidState, "a purchase with an offer needs a transport: only the backend can sign the offer",
                  details: offer.details(productId: productId, reason: "offer_needs_backend"))
    }
}
