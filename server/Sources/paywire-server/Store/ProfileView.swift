import PaywireModel
import ServerDomain

/// What the dashboard's profile view shows of a profile, as read from the store: every
/// transaction it holds or bought (any store, any status), the transfers in and out, and the
/// web purchases it holds for redemption or redeemed.
struct ProfileView: Sendable {
    let known: Bool
    let customerUserId: String?
    let transactions: [ViewedTransaction]
    let transfers: [TransferEntry]
    let webPurchases: [ViewedWebPurchase]
}

/// A transaction as the profile view lists it.
struct ViewedTransaction: Sendable {
    let transactionId: String
    let vendorProductId: String
    let store: StoreName
    let status: PurchaseStatus
    let environment: StoreEnvironment
    let purchasedAt: Int
    let expiresAt: Int?
    let priceAmount: String?
    let currencyCode: String?
    /// Holds the access now.
    let owner: String
    /// Bought it (its results count for this profile's cell).
    let purchaser: String
    /// The cell it was bought on, when attributed: placement, test, variation.
    let placementId: String?
    let abTestName: String?
    let variationId: String?

    /// Store `stripe`: bought through a web checkout.
    var isWeb: Bool { store == .stripe }
}

/// A completed web checkout as the profile view lists it.
struct ViewedWebPurchase: Sendable {
    let checkoutSessionId: String
    let originalTransactionId: String
    let holder: String
    let redeemable: Bool
    let completedAt: Int
    /// When its current redemption link stops redeeming; nil: none was issued.
    let tokenExpiresAt: Int?
    let redeemedBy: String?
    let redeemedAt: Int?
}
