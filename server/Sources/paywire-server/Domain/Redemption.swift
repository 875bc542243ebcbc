import Crypto
import Foundation

/// Redemption links of web purchases made without a profile: a single-use token of 32 random
/// bytes (base64url, 43 characters), of which the store keeps only the SHA-256, so a copy of
/// the database redeems nothing. Pure: the random bytes come from the source `newToken` is given.
enum Redemption {
    static let tokenBytes = 32

    /// A new token and the digest the store keeps of it.
    static func newToken(_ random: any RandomSource) -> (token: String, digest: String) {
        let bytes = random.bytes(tokenBytes)
        let token = Base64URL.encode(bytes)
        return (token, digest(of: bytes))
    }

    /// The digest of a token as sent; nil when it is not 32 bytes of base64url (never stored,
    /// so it is `invalid`).
    static func digest(ofToken token: String) -> String? {
        let base64URL = token.utf8.allSatisfy { c in
            (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x2D || c == 0x5F
        }
        guard token.utf8.count == 43, base64URL, let data = Base64URL.decode(token), data.count == tokenBytes else { return nil }
        return digest(of: Array(data))
    }

    static func digest(of bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// The link the app opens: `base?token=…` (or `&token=` when the base has a query).
    static func link(base: String, token: String) -> String {
        base + (base.contains("?") ? "&" : "?") + "token=" + token
    }

    /// A stored web purchase as a redemption needs it.
    struct Held: Sendable, Equatable {
        let checkoutSessionId: String
        let holder: String
        let expiresAt: Int?
        let redeemedBy: String?
    }

    enum Result: String, Sendable {
        case redeemed, expired, invalid
        case alreadyRedeemed = "already_redeemed"
        case belongsToAnotherProfile = "belongs_to_another_profile"
    }

    /// What redeeming `held` (nil: no such token) for `profileId` at `now` comes to. A redeemed
    /// link answers who redeemed it even after its time: single use, never a second owner.
    static func decide(_ held: Held?, profileId: String, now: Int) -> Result {
        guard let held else { return .invalid }
        if let owner = held.redeemedBy { return owner == profileId ? .alreadyRedeemed : .belongsToAnotherProfile }
        guard let expiresAt = held.expiresAt, now < expiresAt else { return .expired }
        return .redeemed
    }

    /// What asking for a new link for a held purchase comes to.
    enum Issue: Sendable, Equatable {
        case issued
        case unknown
        /// The checkout named its profile: there is nothing to redeem.
        case notRedeemable(profileId: String)
        case alreadyRedeemed(profileId: String)
    }
}
