/// Who owns what a Stripe event concerns, decided from the event and the links kept: pure, the
/// same for both storage engines.
package enum StripeRules {
    /// What the webhook then writes and applies.
    package struct Plan: Sendable, Equatable {
        package let owner: String
        package let originalTransactionId: String
        /// A completed checkout to keep (held for redemption when it named no profile).
        package let checkout: WebCheckout?
        package let links: [StripeLink]
        package let customer: StripeLink?
    }

    /// The plan of `effect` given the links of its lookup keys; nil when nothing names an owner
    /// yet (Stripe's retry lands once the checkout's event did).
    package static func plan(_ effect: StripeEffect, links: [String: StripeLink]) -> Plan? {
        if let session = effect.checkoutSessionId, let purchase = effect.originalTransactionId {
            let owner = effect.namedProfile ?? StripeEvent.holderPrefix + session
            let checkout = WebCheckout(checkoutSessionId: session, originalTransactionId: purchase, holder: owner,
                                       redeemable: effect.namedProfile == nil || effect.fromWebPaywall, completedAt: effect.at)
            return Plan(owner: owner, originalTransactionId: purchase, checkout: checkout,
                        links: effect.links.map { StripeLink(stripeId: $0, originalTransactionId: purchase, profileId: owner) },
                        customer: effect.customerId.map { StripeLink(stripeId: $0, originalTransactionId: nil, profileId: owner) })
        }
        // A purchase's own ids first (its checkout's profile, or whoever redeemed it), then the
        // profile the event's metadata names, then the customer's latest checkout.
        var owner: String?, purchase = effect.originalTransactionId
        if let link = effect.lookupKeys.lazy.compactMap({ links[$0] }).first(where: { $0.originalTransactionId != nil }) {
            owner = link.profileId
            purchase = purchase ?? link.originalTransactionId
        } else if effect.namedProfileIsHint, let named = effect.namedProfile {
            owner = named
        } else if let customer = effect.customerId, let link = links[customer] {
            owner = link.profileId
        }
        guard let owner, let purchase else { return nil }
        return Plan(owner: owner, originalTransactionId: purchase, checkout: nil,
                    links: effect.links.map { StripeLink(stripeId: $0, originalTransactionId: purchase, profileId: owner) }, customer: nil)
    }
}
