/// What a purchase came to, as the seeds' `AdaptyPurchaseResult` says it: a purchase the user
/// cancelled is a result, not an error; a pending one (Ask to Buy, a payment to confirm)
/// finishes later and changes the profile then.
public enum PurchaseResult: Sendable, Hashable {
    /// Bought: the profile with the access it grants (`verified: false` until the backend
    /// answers), and the store's transaction.
    case success(profile: Profile, transaction: TransactionSummary?)
    /// The user cancelled in the store's sheet.
    case userCancelled
    /// The store has not settled it yet.
    case pending

    /// True for `.userCancelled`, as the seeds' `isPurchaseCancelled`.
    public var isPurchaseCancelled: Bool { self == .userCancelled }

    /// The profile after a successful purchase.
    public var profile: Profile? {
        if case .success(let profile, _) = self { return profile }
        return nil
    }
}

extension PurchaseOutcome {
    /// The outcome as a ``PurchaseResult``; nil for a kind this binding does not know (a newer
    /// library's), which a caller reports rather than guesses.
    public var purchaseResult: PurchaseResult? {
        switch self {
        case .success(let success): .success(profile: success.profile, transaction: success.transaction)
        case .userCancelledPending(let unsettled):
            switch unsettled.type {
            case .userCancelled: .userCancelled
            case .pending: .pending
            case .unknown: nil
            }
        case .unknown: nil
        }
    }
}

extension MakePurchaseResult {
    /// The `make_purchase` result as a ``PurchaseResult``; nil for a `type` this binding does not know.
    public var purchaseResult: PurchaseResult? {
        switch type {
        case .success: .success(profile: profile, transaction: transaction)
        case .userCancelled: .userCancelled
        case .pending: .pending
        case .unknown: nil
        }
    }
}
