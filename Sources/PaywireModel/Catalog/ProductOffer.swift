import PaywireWire

/// One pricing phase of an offer: `numberOfPeriods` periods of `period` at `price`, paid as
/// `paymentMode` (Play's PricingPhase; StoreKit's introductory or promotional offer).
package struct OfferPhase: Equatable, Sendable {
    package let paymentMode: IntroOffer.PaymentMode
    package let period: SubscriptionPeriod
    /// The phase's cycle count (Play's billingCycleCount).
    package let numberOfPeriods: Int
    package var price: Price

    /// `{payment_mode, period, number_of_periods?, price?, localized_price?}` in the store shape;
    /// a free trial costs 0.
    package static func load(_ fields: Fields, prices: PriceReader) throws(WireError) -> OfferPhase {
        guard let mode = try fields.optionalEnum("payment_mode", IntroOffer.PaymentMode.self) else {
            throw WireError.wrongParam(fields.fieldPath("payment_mode"), "is required")
        }
        let price = mode == .free_trial && fields.optional("price") == nil ? prices.zero : try prices.read("price", in: fields)
        return OfferPhase(paymentMode: mode, period: try SubscriptionPeriod.load(try fields.object("period")),
                          numberOfPeriods: try fields.optionalInt("number_of_periods", in: 1...1000) ?? 1, price: price)
    }

    /// `#/$defs/offer_phase`: the period under both names, Paywire's (`period`, schema 1.x's
    /// readers) and the peers' (`subscription_period`, Adapty's cross-platform schema).
    package func write(to writer: inout JSONWriter) {
        writer.object { writer in writeMembers(to: &writer, peerNames: true) }
    }

    /// The phase's members, inside an object the caller opened; `peerNames` adds the period
    /// under the peers' names (the flat members schema 1.1 gave an offer have no such names).
    package func writeMembers(to writer: inout JSONWriter, peerNames: Bool = false) {
        writer.member("payment_mode", paymentMode.rawValue)
        writer.key("period")
        period.write(to: &writer)
        writer.member("localized_period", period.localized)
        if peerNames {
            writer.key("subscription_period")
            period.write(to: &writer)
            writer.member("localized_subscription_period", period.localized)
        }
        writer.member("number_of_periods", numberOfPeriods)
        writer.key("price")
        price.write(to: &writer)
    }
}

/// An offer on a subscription's base plan: phases before the base plan's own price. A Google
/// Play offer (`offer_id`, tags, any number of phases), or the App Store's intro, promotional
/// or win-back offer as a one-phase offer.
package struct ProductOffer: Equatable, Sendable {
    package let kind: IntroOffer.Kind
    /// The store's id of the offer; nil for the App Store's introductory offer.
    package let offerId: String?
    package let tags: [String]
    /// Never empty.
    package var phases: [OfferPhase]
    /// What schema 1.1's `offer_identifier` said: the App Store offer's id; nil for Play's.
    private let legacyIdentifier: String?

    /// The App Store's offer as a one-phase offer.
    package init(_ offer: IntroOffer) {
        kind = offer.kind
        offerId = offer.identifier
        tags = []
        phases = [OfferPhase(paymentMode: offer.paymentMode, period: offer.period, numberOfPeriods: offer.numberOfPeriods, price: offer.price)]
        legacyIdentifier = offer.identifier
    }

    /// A Google Play offer in the store shape: `{offer_id, offer_tags?, phases}`. Play lists only
    /// the offers the user may have, so each is introductory in the App Store's terms.
    package init(play fields: Fields, prices: PriceReader) throws(WireError) {
        kind = .introductory
        offerId = try fields.identifier("offer_id")
        var tags: [String] = []
        if fields.optional("offer_tags") != nil {
            for (index, element) in try fields.array("offer_tags").enumerated() {
                guard case .string(let tag) = element else {
                    throw WireError.wrongParam("\(fields.fieldPath("offer_tags"))[\(index)]", "expected a tag (a string)")
                }
                tags.append(tag)
            }
        }
        self.tags = tags
        let listed = try fields.objects("phases")
        guard !listed.isEmpty else { throw WireError.wrongParam(fields.fieldPath("phases"), "an offer has at least one phase") }
        var phases: [OfferPhase] = []
        for phase in listed { phases.append(try OfferPhase.load(phase, prices: prices)) }
        self.phases = phases
        legacyIdentifier = nil
    }

    /// `#/$defs/product_offer`; with `flat`, first the members schema 1.1 gave `offer` (its
    /// first phase), so older readers keep reading what they did.
    package func write(to writer: inout JSONWriter, flat: Bool) {
        writer.object { writer in
            writer.member("type", kind.rawValue)
            if flat, let first = phases.first {
                writer.member("offer_identifier", legacyIdentifier)
                first.writeMembers(to: &writer)
            }
            writer.member("offer_id", offerId)
            if !flat {
                // The peers' identifier: its type, and its id when one is known.
                writer.key("offer_identifier")
                writer.object { writer in
                    writer.member("type", kind.rawValue)
                    if let offerId { writer.member("id", offerId) }
                }
            }
            writer.key("offer_tags")
            writer.array { writer in for tag in tags { writer.string(tag) } }
            writer.key("phases")
            writer.array { writer in for phase in phases { phase.write(to: &writer) } }
        }
    }
}
