import PaywireWire

/// A subscription period such as one month or one week.
package struct SubscriptionPeriod: Equatable, Sendable {
    package enum Unit: String, WireEnum, Sendable { case day, week, month, year }
    package let unit: Unit
    package let numberOfUnits: Int

    /// English text for people (`1 month`, `3 months`); hosts with their own formatter use `unit`.
    package var localized: String { "\(numberOfUnits) \(unit.rawValue)\(numberOfUnits == 1 ? "" : "s")" }

    package static func load(_ fields: Fields) throws(WireError) -> SubscriptionPeriod {
        guard let unit = try fields.optionalEnum("unit", Unit.self) else {
            throw WireError.wrongParam(fields.fieldPath("unit"), "is required")
        }
        return SubscriptionPeriod(unit: unit, numberOfUnits: try fields.int("number_of_units", in: 1...1000))
    }

    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("unit", unit.rawValue)
            writer.member("number_of_units", numberOfUnits)
        }
    }
}

/// A price as the store gave it: the amount keeps its decimal text so no cent is lost.
package struct Price: Equatable, Sendable {
    package let amount: JSONNumber
    package let currencyCode: String
    package let currencySymbol: String
    /// The price as the store writes it for its user (`localized_price`), when it gave one.
    package var written: String?

    /// The store's own text, else the symbol (or the code) and the amount as given.
    package var localizedString: String {
        written ?? (currencySymbol.isEmpty ? "\(currencyCode) \(amount.text)" : "\(currencySymbol)\(amount.text)")
    }

    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("amount")
            writer.number(amount)
            writer.member("currency_code", currencyCode)
            writer.member("currency_symbol", currencySymbol)
            writer.member("localized_string", localizedString)
        }
    }
}

/// An introductory offer (free trial, pay as you go, pay up front).
package struct IntroOffer: Equatable, Sendable {
    package enum PaymentMode: String, WireEnum, Sendable { case free_trial, pay_as_you_go, pay_up_front }
    /// Which kind of offer: the store's introductory offer, a promotional offer, a win-back offer.
    package enum Kind: String, WireEnum, Sendable { case introductory, promotional, win_back }
    package let paymentMode: PaymentMode
    package let period: SubscriptionPeriod
    package let numberOfPeriods: Int
    package var price: Price
    package var kind = Kind.introductory
    /// The store's id of a promotional or win-back offer.
    package var identifier: String?
}

/// Whether the user may take a product's intro offer. `unknown` until the store has validated
/// the receipt; hosts should treat it like `ineligible` (never promise a trial that may not come).
package enum OfferEligibility: String, WireEnum, Sendable {
    case eligible, ineligible, unknown
}

/// A product as the store describes it, before it is tied to a paywall. Public for the backend:
/// what it needs to grant access exactly as the device does.
public struct StoreProduct: Equatable, Sendable {
    public let vendorProductId: String
    package let localizedTitle: String
    package let localizedDescription: String
    package let price: Price
    package let period: SubscriptionPeriod?
    package let introOffer: IntroOffer?
    /// The access level a purchase of this product grants; nil: none (there is no default).
    public let accessLevel: String?
    /// What a purchase grants and how it is finished; named by the store product, else inferred.
    public package(set) var productType = ProductType.non_consumable
    /// Eligibility for the intro offer as the store knows it now.
    package var eligibility: OfferEligibility = .unknown
    /// What `unknown` becomes once the receipt is validated.
    package var eligibilityAfterValidation: OfferEligibility = .eligible
    /// Whether family members share the purchase (Family Sharing).
    package var isFamilyShareable = false
    /// The subscription group it belongs to (upgrades and downgrades happen within one).
    package var groupIdentifier: String?
    /// Whether the subscription renews by itself.
    public package(set) var autoRenews = true
    /// Google Play: the base plan whose price and period these are.
    package var basePlanId: String?
    /// Google Play: the offers on the base plan the user may have.
    package var playOffers: [ProductOffer] = []

    /// Every offer the store describes: the App Store's as a one-phase offer, then Play's.
    package var allOffers: [ProductOffer] { (introOffer.map { [ProductOffer($0)] } ?? []) + playOffers }

    /// The offer a paywall applies: the one it names by id (nil when the store does not list
    /// it for this user), else the App Store's intro offer.
    package func offer(named offerId: String?) -> ProductOffer? {
        guard let offerId else { return introOffer.map(ProductOffer.init) }
        return allOffers.first { $0.offerId == offerId }
    }

    /// Whether this description is of the base plan a paywall product names (any, when it names none).
    package func serves(_ reference: ProductReference?) -> Bool {
        guard let wanted = reference?.basePlanId else { return true }
        return wanted == basePlanId
    }

    /// The price's decimal text, exactly as authored.
    public var priceText: String { price.amount.text }
    /// The price's ISO 4217 currency code.
    public var currencyCode: String { price.currencyCode }

    /// When access bought at `start` ends: start plus one period (months and years by the
    /// calendar, days and weeks exact); nil (for life) without a period.
    public func expiry(from start: WideInt) -> WideInt? {
        guard let period, productType.hasPeriod else { return nil }
        switch period.unit {
        case .day: return start.clampedAdding(WideInt(period.numberOfUnits) * Milliseconds.day)
        case .week: return start.clampedAdding(WideInt(period.numberOfUnits) * 7 * Milliseconds.day)
        case .month: return ISODate.adding(months: WideInt(period.numberOfUnits), to: start)
        case .year: return ISODate.adding(months: 12 * WideInt(period.numberOfUnits), to: start)
        }
    }

    /// The wire form of a paywall product (`#/$defs/product`), tied to the paywall it was shown
    /// on (without one, the `paywall_*` members are left out), with its text tags when given.
    package func write(to writer: inout JSONWriter, paywall: PaywallReference?, index: Int,
                       textTags: [(name: String, text: String)]? = nil) {
        let named = paywall?.products.first { $0.vendorProductId == vendorProductId }
        let applied = offer(named: named?.offerId)
        writer.object { writer in
            writer.member("vendor_product_id", vendorProductId)
            writer.member("access_level_id", named?.accessLevelId ?? accessLevel)
            writer.member("product_type", (named?.productType ?? productType).rawValue)
            writer.member("localized_title", localizedTitle)
            writer.member("localized_description", localizedDescription)
            writer.key("price")
            price.write(to: &writer)
            writer.member("is_family_shareable", isFamilyShareable)
            writer.key("subscription")
            if let period {
                writer.object { writer in
                    writer.key("period")
                    period.write(to: &writer)
                    writer.member("localized_period", period.localized)
                    writer.member("group_identifier", groupIdentifier)
                    writer.member("renewal_type", autoRenews ? "autorenewable" : "non_renewable")
                    writer.member("base_plan_id", basePlanId)
                    writer.key("offers")
                    writer.array { writer in for offer in allOffers { offer.write(to: &writer, flat: false) } }
                    writer.key("offer")
                    if let applied { applied.write(to: &writer, flat: true) } else { writer.null() }
                }
            } else {
                writer.null()
            }
            if let paywall {
                writer.member("paywall_variation_id", paywall.variationId)
                writer.member("paywall_ab_test_name", paywall.abTestName)
                writer.member("paywall_name", paywall.paywallName)
                writer.member("paywall_product_index", index)
            }
            writer.member("intro_offer_eligibility", applied == nil ? OfferEligibility.ineligible.rawValue : eligibility.rawValue)
            if let textTags {
                writer.key("text_tags")
                writer.object { writer in
                    for tag in textTags { writer.member(tag.name, tag.text) }
                }
            }
        }
    }
}
