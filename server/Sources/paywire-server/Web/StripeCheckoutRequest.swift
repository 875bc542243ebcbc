import ServerDomain

/// The form `POST /v1/checkout/sessions` takes (Stripe's bracket notation), for one plan of a
/// web paywall. Pure: what the session says is decided here and tested without a network.
struct StripeCheckoutRequest: Sendable, Equatable {
    /// `subscription` for a product that renews, else `payment`.
    let mode: String
    let priceId: String
    /// The visitor's profile: the checkout's owner until the app redeems it.
    let profileId: String
    let placementId: String
    let abTestName: String
    let variationId: String
    /// Where Stripe sends the browser back; `{CHECKOUT_SESSION_ID}` is Stripe's own template.
    let successURL: String
    let cancelURL: String

    /// The fields in a fixed order (tests read them), values not yet encoded.
    var fields: [(String, String)] {
        // Stripe keeps no metadata key whose value is empty: a placement without an A/B test
        // sends none, and the webhook reads a missing test name as the empty one.
        let metadata = [("paywire_placement_id", placementId), ("paywire_ab_test_name", abTestName),
                        ("paywire_variation_id", variationId), ("paywire_price_id", priceId),
                        (StripeObjects.webPaywallKey, "1")].filter { !$0.1.isEmpty }
        // The payment page asks for a promotion code itself (the paywall's promo field says so).
        var fields = [("mode", mode), ("line_items[0][price]", priceId), ("line_items[0][quantity]", "1"), ("allow_promotion_codes", "true"),
                      ("success_url", successURL), ("cancel_url", cancelURL), ("client_reference_id", profileId)]
        fields += metadata.map { ("metadata[\($0.0)]", $0.1) }
        // A subscription's own events carry its metadata, not the checkout's: the profile and
        // the paywall cell ride along so renewals are counted where the purchase was.
        if mode == "subscription" {
            fields += metadata.map { ("subscription_data[metadata][\($0.0)]", $0.1) }
            fields.append(("subscription_data[metadata][paywire_profile_id]", profileId))
        }
        return fields
    }

    /// `application/x-www-form-urlencoded`, every byte outside the unreserved set escaped.
    var body: String {
        fields.map { "\(URLComponent.escaped($0.0))=\(URLComponent.escaped($0.1))" }.joined(separator: "&")
    }

}
