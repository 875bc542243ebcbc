import PaywireModel
import PaywireWire

/// A money record: one transaction kept in the outbox's money lane as the claim it will be
/// sent as (`PurchaseClaim`, the body of `POST /v1/purchases`), and what the queue needs to
/// know of it while the backend has not answered.
enum PurchaseRecord {
    /// What the queue needs to know of a kept record: which transaction, and whether the core
    /// (not the app, in observer mode) finishes it.
    struct Kept: Sendable {
        let transaction: StoreTransaction
        /// The profile it was bought for: an answer about another profile is not applied.
        let profileId: String
        let finishedByCore: Bool
        /// Nil for records kept before product types were recorded.
        let productType: ProductType?
        /// Kept as `pending`: the store has not completed it, so there is nothing to acknowledge.
        let isPending: Bool

        /// `transaction`: the store's report the claim was made of, when this run has it.
        init(_ claim: PurchaseClaim, transaction reported: StoreTransaction? = nil) {
            transaction = reported ?? StoreTransaction(claim.transaction)
            profileId = claim.profileId
            finishedByCore = !claim.observerMode
            productType = claim.productType
            isPending = claim.state == .pending
        }
    }

    /// Reads back a kept record; nil when it is not a purchase claim (the same reader the
    /// backend reads it with).
    static func kept(_ body: [UInt8]) -> Kept? {
        guard let claim = try? PurchaseClaim.decode(body) else { return nil }
        return Kept(claim)
    }

    /// The claim of a transaction: a price or an attribution the backend would not keep is left
    /// out (and said in a `warn` log), never the reason a purchase is lost.
    static func claim(eventId: String, transaction: StoreTransaction, state: PurchaseState, type: ProductType, price: Price?,
                      profile: Profile, attribution: PurchaseAttribution?, observerMode: Bool, log: Log) -> PurchaseClaim {
        var claimed = price.map { PurchaseClaim.Price(amount: $0.amount, currencyCode: $0.currencyCode) }
        if let given = claimed, !given.isKeepable {
            log(.warn, "the price of transaction '\(transaction.transactionId)' is left out of its record: the backend keeps an amount >= 0 in a 3-letter currency",
                details: [("transaction_id", .string(transaction.transactionId)), ("currency_code", .string(given.currencyCode))])
            claimed = nil
        }
        var attributed = attribution
        if let given = attribution {
            do throws(WireError) {
                try given.validate()
            } catch {
                log(.warn, "the paywall of transaction '\(transaction.transactionId)' is left out of its record: \(error.message)",
                    details: [("transaction_id", .string(transaction.transactionId))] + error.logDetails)
                attributed = nil
            }
        }
        return PurchaseClaim(eventId: eventId, profileId: profile.profileId, customerUserId: profile.customerUserId,
                             transaction: transaction.claim, price: claimed, state: state, productType: type,
                             observerMode: observerMode, attribution: attributed)
    }
}
