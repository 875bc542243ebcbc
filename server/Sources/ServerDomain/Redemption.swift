import Foundation
import PaywireModel

/// Redemption links of web purchases made without a profile: a single-use `SecretToken`, of
/// which the store keeps only the SHA-256, so a copy of the database redeems nothing. Pure.
package enum Redemption {
    /// A new token and the digest the store keeps of it.
    package static func newToken(_ random: any RandomSource) -> (token: String, digest: String) { SecretToken.make(random) }

    /// The token of the link a web paywall's buyer is shown for a checkout, and its digest:
    /// derived from the visitor's credential (the secret half of the buyer's cookie, of which
    /// the store keeps only a digest) and the checkout, so every load of the success page in
    /// that browser shows the same link, and no one without the cookie (a copy of the database
    /// included) can make it.
    package static func buyersToken(credential: String, checkoutSessionId: String) -> (token: String, digest: String) {
        let token = SecretToken.derived(credential, "web-redemption\u{0}" + checkoutSessionId)
        return (token, SecretToken.digest(ofToken: token) ?? "")
    }

    /// The expiry of the link `digest` names when it is the one the checkout gave last and it
    /// still redeems at `now`: the page shows it again as it is. Nil: the link must be given
    /// (first, again after it expired, or after an operator gave another one).
    package static func stillGiven(_ state: WebCheckoutState, digest: String, now: Int) -> Int? {
        guard let kept = state.tokenDigest, let expiresAt = state.tokenExpiresAt, !digest.isEmpty,
              ConstantTime.same(Array(kept.utf8), Array(digest.utf8)) == 1, now < expiresAt else { return nil }
        return expiresAt
    }

    /// The digest of a token as sent; nil when it is not one (never stored, so it is `invalid`).
    package static func digest(ofToken token: String) -> String? { SecretToken.digest(ofToken: token) }

    /// The link the app opens: `base?token=…` (or `&token=` when the base has a query).
    package static func link(base: String, token: String) -> String {
        base + (base.contains("?") ? "&" : "?") + "token=" + token
    }

    /// A stored web purchase as a redemption needs it.
    package struct Held: Sendable, Equatable {
        package let checkoutSessionId: String
        package let holder: String
        package let expiresAt: Int?
        package let redeemedBy: String?
        /// The purchase the checkout made: what a redemption moves when its holder is a web
        /// paywall's visitor, who may hold other purchases of its own.
        package var originalTransactionId: String? = nil

        package init(checkoutSessionId: String, holder: String, expiresAt: Int?, redeemedBy: String?,
                     originalTransactionId: String? = nil) {
            self.checkoutSessionId = checkoutSessionId
            self.holder = holder
            self.expiresAt = expiresAt
            self.redeemedBy = redeemedBy
            self.originalTransactionId = originalTransactionId
        }

        /// The holder is the profile made for this checkout alone (`web_purchase:<session>`),
        /// whose every purchase and Stripe id (its customer's too) the redemption moves.
        package var holdsThisCheckoutOnly: Bool { holder.hasPrefix(StripeEvent.holderPrefix) }
    }

    /// The model's results (`RedemptionResult`): the device reads the same names.
    package typealias Result = RedemptionResult

    /// What redeeming `held` (nil: no such token) for `profileId` at `now` comes to. A redeemed
    /// link answers who redeemed it even after its time: single use, never a second owner.
    package static func decide(_ held: Held?, profileId: String, now: Int) -> Result {
        guard let held else { return .invalid }
        if let owner = held.redeemedBy { return Identity.same(owner, profileId) ? .alreadyRedeemed : .belongsToAnotherProfile }
        guard let expiresAt = held.expiresAt, now < expiresAt else { return .expired }
        return .redeemed
    }

    /// What asking for a new link for a held purchase comes to.
    package enum Issue: Sendable, Equatable {
        case issued
        case unknown
        /// The checkout named its profile: there is nothing to redeem.
        case notRedeemable(profileId: String)
        case alreadyRedeemed(profileId: String)
    }
}
