import PaywireModel
import PaywireWire

/// What a verified StoreKit 2 transaction says besides its ids, product, purchase time and
/// environment, read from the signed payload only.
package struct SignedFacts: Sendable, Equatable {
    /// `expiresDate`: a subscription's end; nil for other products.
    package var expiresAt: Int?
    /// `inAppOwnershipType`: `purchased`, or `family_shared` for a family member's access.
    package var ownershipType: String?
    /// `offerType`: `introductory`, `promotional`, `offer_code` or `win_back`.
    package var offerType: String?
    /// `offerIdentifier`: the promotional offer, offer code or win-back offer.
    package var offerId: String?
    /// `offerDiscountType`: `free_trial`, `pay_as_you_go` or `pay_up_front`.
    package var offerPaymentMode: String?
}

/// A StoreKit 2 transaction (`JWSTransactionDecodedPayload`), verified by `AppStoreSigned`, as
/// the claim the server stores: every fact from the payload, never from the device's members,
/// which must agree with it. Pure.
package enum SignedTransaction {
    package static let offerTypes = [1: "introductory", 2: "promotional", 3: "offer_code", 4: "win_back"]
    package static let paymentModes = ["FREE_TRIAL": "free_trial", "PAY_AS_YOU_GO": "pay_as_you_go", "PAY_UP_FRONT": "pay_up_front"]
    package static let ownershipTypes = ["PURCHASED": "purchased", "FAMILY_SHARED": "family_shared"]

    package static func claim(_ payload: JSONValue, sent: StoreClaim) throws(Refusal) -> StoreClaim {
        let members: Members
        let facts: (String, String, String, Int, StoreEnvironment, SignedFacts, Int?)
        do {
            members = try Members(payload, path: "signed_transaction.")
            facts = try read(members)
        } catch {
            throw Refusal(code: .invalidPayload, message: error.message)
        }
        let (transactionId, originalTransactionId, productId, purchasedAt, environment, signed, revokedAt) = facts
        if let revokedAt {
            throw Refusal(code: .revoked, message: "the App Store revoked transaction '\(transactionId)' at \(ISODate.format(milliseconds: revokedAt)): it grants nothing")
        }
        for (name, sentValue, signedValue) in [("transaction_id", sent.transactionId, transactionId),
                                               ("original_transaction_id", sent.originalTransactionId, originalTransactionId),
                                               ("vendor_product_id", sent.vendorProductId, productId),
                                               ("environment", sent.environment.rawValue, environment.rawValue)]
        where sentValue != signedValue {
            throw Refusal(code: .verificationFailed, message: "\(name) '\(sentValue)' is not the signed transaction's ('\(signedValue)')")
        }
        let claim = TransactionClaim(transactionId: transactionId, originalTransactionId: originalTransactionId, vendorProductId: productId,
                                     verification: sent.verification, purchasedAt: purchasedAt, environment: environment, store: .appStore,
                                     signedTransaction: sent.signedTransaction)
        return StoreClaim(claim, text: sent.text, signed: signed)
    }

    /// (transactionId, originalTransactionId, productId, purchaseDate, environment, facts, revocationDate).
    private static func read(_ members: Members) throws(RequestProblem) -> (String, String, String, Int, StoreEnvironment, SignedFacts, Int?) {
        guard let purchasedAt = try members.millis("purchaseDate") else { throw RequestProblem("signed_transaction.purchaseDate is required") }
        let environment = StoreEnvironment(appStore: try members.text("environment"))
        var facts = SignedFacts(expiresAt: try members.millis("expiresDate"))
        facts.ownershipType = try named(members, "inAppOwnershipType", ownershipTypes)
        if let type = try members.int("offerType") {
            guard let name = offerTypes[type] else { throw RequestProblem("signed_transaction.offerType must be 1 to 4") }
            facts.offerType = name
            facts.offerId = try members.optionalText("offerIdentifier")
            facts.offerPaymentMode = try named(members, "offerDiscountType", paymentModes)
        }
        return (try members.text("transactionId"), try members.text("originalTransactionId"), try members.text("productId"), purchasedAt,
                environment, facts, try members.millis("revocationDate"))
    }

    private static func named(_ members: Members, _ key: String, _ names: [String: String]) throws(RequestProblem) -> String? {
        guard let text = try members.optionalText(key) else { return nil }
        guard let name = names[text] else {
            throw RequestProblem("signed_transaction.\(key) must be one of \(names.keys.sorted().joined(separator: ", "))")
        }
        return name
    }
}
