import PaywireModel
import PaywireWire

/// A transaction as the server checks it: the device's claim as the model reads it (or one a
/// store's own message made), its text, and what its verified signature says.
package struct StoreClaim: Sendable {
    /// As sent, then as its signed transaction says once verified.
    package var claim: TransactionClaim
    /// The claim's text (for `/_dev/purchases` and the purchase log).
    package let text: String
    /// What the verified JWS says beyond the claim's members; nil until verified (and for
    /// claims without one).
    package var signed: SignedFacts? = nil

    package var transactionId: String { claim.transactionId }
    package var originalTransactionId: String { claim.originalTransactionId }
    package var vendorProductId: String { claim.vendorProductId }
    package var verification: String { claim.verification }
    package var purchasedAt: Int { claim.purchasedAt }
    package var environment: StoreEnvironment { claim.environment }
    package var store: StoreName { claim.store }
    package var signedTransaction: String? { claim.signedTransaction }

    /// A claim read from a request, with its text as the model writes it.
    package init(_ claim: TransactionClaim) {
        self.claim = claim
        var writer = JSONWriter(reservingCapacity: 256)
        writer.object { claim.writeMembers(to: &$0) }
        text = writer.string
    }

    package init(_ claim: TransactionClaim, text: String, signed: SignedFacts? = nil) {
        self.claim = claim
        self.text = text
        self.signed = signed
    }

    /// When its access ends: the signed expiry when the App Store gave one, else one period of
    /// the catalog's product from the purchase (nil: for life).
    package func expiry(_ product: StoreProduct?) -> Int? {
        signed?.expiresAt ?? product?.expiry(from: purchasedAt)
    }
}

/// A `POST /v1/purchases` body as the server records it (`PurchaseClaim`, read by the model),
/// or a purchase a store's own message made known. The claim's `customer_user_id` is not kept
/// here: a claim binds no customer (only `identify` with its proof does), so nothing past the
/// reader can bind one.
package struct PurchasePost: Sendable {
    package let profileId: String
    package var claim: StoreClaim
    /// The price's exact decimal text and currency, when the device knew them (else the
    /// catalog's price counts).
    package let amount: String?
    package let currencyCode: String?
    package let state: PurchaseState
    package let attribution: PurchaseAttribution?

    package var pending: Bool { state == .pending }

    package init(_ request: PurchaseClaim) {
        self.init(profileId: request.profileId, claim: StoreClaim(request.transaction),
                  amount: request.price?.amount.text, currencyCode: request.price?.currencyCode, state: request.state,
                  attribution: request.attribution)
    }

    package init(profileId: String, claim: StoreClaim, amount: String?, currencyCode: String?, state: PurchaseState,
         attribution: PurchaseAttribution?) {
        self.profileId = profileId
        self.claim = claim
        self.amount = amount
        self.currencyCode = currencyCode
        self.state = state
        self.attribution = attribution
    }
}

/// A `POST /v1/restores` body as the server records it; like a purchase's, its
/// `customer_user_id` binds nothing and is not kept.
package struct RestorePost: Sendable {
    /// The request's id: a retry of a restore that moved a purchase answers where it came from.
    package let eventId: String
    package let profileId: String
    package var claims: [StoreClaim]

    package init(_ request: RestoreClaim) {
        eventId = request.eventId
        profileId = request.profileId
        claims = request.transactions.map { StoreClaim($0) }
    }
}
