import FlyingFox
// Scoped: FlyingFox has a JSONValue of its own.
import enum PaywireWire.JSONValue
import enum PaywireWire.ISODate

extension Routes {
    /// `POST /v1/offers/sign`: the signature when the profile may have the offer, else `403
    /// offer_not_eligible` saying why.
    func signOffer(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let object = try? JSONValue(parsing: Array(try await request.bodyData)), object.isObject else {
            return Reply.error(400, code: "invalid_request", "the body must be {profile_id, vendor_product_id, offer_id, offer_type}")
        }
        let known = ["profile_id", "vendor_product_id", "offer_id", "offer_type"]
        if case .object(let members) = object, let unknown = members.keys.first(where: { !known.contains($0) }) {
            return Reply.error(400, code: "invalid_request", "unknown member '\(unknown)'")
        }
        var fields: [String: String] = [:]
        for key in known {
            guard let text = object[key]?.asString, !text.isEmpty else {
                return Reply.error(400, code: "invalid_request", "\(key) must be a non-empty string")
            }
            fields[key] = text
        }
        let (profileId, productId, offerId, type) = (fields["profile_id"] ?? "", fields["vendor_product_id"] ?? "",
                                                     fields["offer_id"] ?? "", fields["offer_type"] ?? "")
        guard let kind = OfferEligibility.Kind(rawValue: type) else {
            return Reply.error(400, code: "invalid_request", "offer_type must be promotional or win_back")
        }
        let now = Self.now()
        if let refusal = OfferEligibility.refusal(kind, productId: productId, profile: try await profileBody(profileId), now: now) {
            return Reply.error(403, code: "offer_not_eligible", refusal)
        }
        return Reply.json(try setup.offers.sign(productId: productId, offerId: offerId, applicationUsername: profileId, now: now))
    }
}

/// Who may have an offer, from the profile the backend knows (purchases, restores, store
/// notifications and dev profiles): the App Store's rules, narrowed to one product since the
/// dev server knows no subscription groups.
enum OfferEligibility {
    enum Kind: String {
        case promotional
        case win_back
    }

    /// Why this profile may not have the offer; nil when it may. A promotional offer is for a
    /// profile that has or had a subscription to the product; a win-back offer for one whose
    /// subscription has ended.
    static func refusal(_ kind: Kind, productId: String, profile: JSONValue?, now: Int) -> String? {
        guard let subscription = profile?["subscriptions"]?[productId], subscription.isObject else {
            return "the profile never subscribed to '\(productId)': \(kind == .win_back ? "win-back" : "promotional") offers are for its subscribers"
        }
        if kind == .win_back, isActive(subscription, now: now) {
            return "the subscription to '\(productId)' is still active: win-back offers are for lapsed subscribers"
        }
        return nil
    }

    /// `is_active` when the grant says it, else whether it has not expired (no expiry: for life).
    static func isActive(_ grant: JSONValue, now: Int) -> Bool {
        if let active = grant["is_active"]?.asBool { return active }
        guard let text = grant["expires_at"]?.asString, let expiresAt = ISODate.parse(text) else { return true }
        return expiresAt > now
    }
}
