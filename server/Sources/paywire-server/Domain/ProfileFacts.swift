import PaywireModel

/// What the store knows of a profile: whether it met it, its customer user id, the verified
/// transactions it owns and what store notifications said of them.
struct ProfileFacts: Sendable {
    let known: Bool
    let customerUserId: String?
    let grants: [OwnedGrant]
    /// By original transaction id.
    let lifecycles: [String: LifecycleState]
}

/// A verified transaction a profile owns, as read from the store.
struct OwnedGrant: Sendable {
    let transactionId: String
    let originalTransactionId: String
    let vendorProductId: String
    let purchasedAt: Int
    let expiresAt: Int?
    /// Nil: the product grants no access level.
    let accessLevel: String?
    let productType: ProductType
    let store: StoreName
    let environment: StoreEnvironment
    /// `purchased` or `family_shared`, from a verified App Store transaction; nil otherwise.
    let ownershipType: String?
    /// The offer a verified App Store transaction was bought with (`introductory`,
    /// `promotional`, `offer_code`, `win_back`) and its id.
    let offerType: String?
    let offerId: String?
    /// `free_trial`, `pay_as_you_go` or `pay_up_front` with an offer.
    let offerPaymentMode: String?
    /// The price's exact decimal text and currency, as the purchase recorded them.
    let priceAmount: String?
    let currencyCode: String?
    /// A sandbox or test-store transaction makes its owner a test user.
    var isSandbox: Bool { environment.isSandbox }
    var isTest: Bool { isSandbox || store == .test }

    init(transactionId: String, originalTransactionId: String, vendorProductId: String, purchasedAt: Int, expiresAt: Int?,
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
