import PaywireModel

/// What the store knows of a profile: whether it met it, its customer user id, the verified
/// transactions it owns and what store notifications said of them.
package struct ProfileFacts: Sendable {
    package let known: Bool
    package let customerUserId: String?
    package let grants: [OwnedGrant]
    /// By original transaction id.
    package let lifecycles: [String: LifecycleState]

    package init(known: Bool, customerUserId: String?, grants: [OwnedGrant], lifecycles: [String: LifecycleState]) {
        self.known = known
        self.customerUserId = customerUserId
        self.grants = grants
        self.lifecycles = lifecycles
    }
}

/// A verified transaction a profile owns, as read from the store.
package struct OwnedGrant: Sendable {
    package let transactionId: String
    package let originalTransactionId: String
    package let vendorProductId: String
    package let purchasedAt: Int
    package let expiresAt: Int?
    /// Nil: the product grants no access level.
    package let accessLevel: String?
    package let productType: ProductType
    package let store: StoreName
    package let environment: StoreEnvironment
    /// `purchased` or `family_shared`, from a verified App Store transaction; nil otherwise.
    package let ownershipType: String?
    /// The offer a verified App Store transaction was bought with (`introductory`,
    /// `promotional`, `offer_code`, `win_back`) and its id.
    package let offerType: String?
    package let offerId: String?
    /// `free_trial`, `pay_as_you_go` or `pay_up_front` with an offer.
    package let offerPaymentMode: String?
    /// The price's exact decimal text and currency, as the purchase recorded them.
    package let priceAmount: String?
    package let currencyCode: String?
    /// A sandbox or test-store transaction makes its owner a test user.
    package var isSandbox: Bool { environment.isSandbox }
    package var isTest: Bool { isSandbox || store == .test }

    package init(transactionId: String, originalTransactionId: String, vendorProductId: String, purchasedAt: Int, expiresAt: Int?,
         accessLevel: String?, productType: ProductType, store: StoreName, environment: StoreEnvironment, ownershipType: String? = nil,
         offerType: String? = nil, offerId: String? = nil, offerPaymentMode: String? = nil, priceAmount: String? = nil,
         currencyCode: String? = nil) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.vendorProductId = vendorProductId
        self.purchasedAt = purchasedAt
        self.expiresAt = expiresAt
        self.accessLevel = accessLevel
        self.productType = productType
        self.store = store
        self.environment = environment
        self.ownershipType = ownershipType
        self.offerType = offerType
        self.offerId = offerId
        self.offerPaymentMode = offerPaymentMode
        self.priceAmount = priceAmount
        self.currencyCode = currencyCode
    }
}
