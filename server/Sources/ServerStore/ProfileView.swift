import PaywireModel
import ServerDomain

/// What the dashboard's profile view shows of a profile, as read from the store: every
/// transaction it holds or bought (any store, any status), the transfers in and out, and the
/// web purchases it holds for redemption or redeemed.
package struct ProfileView: Sendable {
    package let known: Bool
    package let customerUserId: String?
    package let transactions: [ViewedTransaction]
    package let transfers: [TransferEntry]
    package let webPurchases: [ViewedWebPurchase]
}

/// A transaction as the profile view lists it.
package struct ViewedTransaction: Sendable {
    package let transactionId: String
    package let vendorProductId: String
    package let store: StoreName
    package let status: PurchaseStatus
    package let environment: StoreEnvironment
    package let purchasedAt: Int
    package let expiresAt: Int?
    package let priceAmount: String?
    package let currencyCode: String?
    /// Holds the access now.
    package let owner: String
    /// Bought it (its results count for this profile's cell).
    package let purchaser: String
    /// The cell it was bought on, when attributed: placement, test, variation.
    package let placementId: String?
    package let abTestName: String?
    package let variationId: String?

    /// Store `stripe`: bought through a web checkout.
    package var isWeb: Bool { store == .stripe }
}

/// A completed web checkout as the profile view lists it.
package struct ViewedWebPurchase: Sendable {
    package let checkoutSessionId: String
    package let originalTransactionId: String
    package let holder: String
    package let redeemable: Bool
    package let completedAt: Int
    /// When its current redemption link stops redeeming; nil: none was issued.
    package let tokenExpiresAt: Int?
    package let redeemedBy: String?
    package let redeemedAt: Int?
}
