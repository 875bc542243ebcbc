import PaywireWire

/// The tags a paywall's texts may hold (builder texts, the remote config), filled from the
/// paywall's products as the store describes them:
///
///     {{price}}            the price as the store writes it (`localized_price`)
///     {{price_per_day}}    the price of one day, week, month or year of the subscription,
///     {{price_per_week}}   rounded down to the decimals the store shows, written as the store
///     {{price_per_month}}  writes the price (PeriodPricing has the lengths)
///     {{price_per_year}}
///     {{period}}           what the price is for: `month`, `3 months`
///     {{intro_price}}      the intro offer's price
///     {{intro_period}}     what the intro price is for: `week`, `3 months`
///     {{intro_duration}}   how long the whole offer lasts: `1 week`, `3 months`
///     {{discount_percent:<vendor_product_id>}}
///                          whole percent saved per month against that product of the
///                          paywall, rounded down (0 when it saves nothing)
///
/// A tag is about one product: the one named after `@` (`{{price_per_month@annual}}`), else
/// the product of the object holding the text (an object whose `product_id` names a product
/// of the paywall, such as a builder plan), else the paywall's first product. Spaces inside the
/// braces are allowed (`{{ price }}`). A tag that cannot be filled stays as written and is
/// reported as a `TextTagProblem`.
package enum TextTag: String, WireEnum, Sendable {
    case price, price_per_day, price_per_week, price_per_month, price_per_year
    case period, intro_price, intro_period, intro_duration, discount_percent

    /// The period unit a `price_per_*` tag is about.
    var perUnit: SubscriptionPeriod.Unit? {
        switch self {
        case .price_per_day: return .day
        case .price_per_week: return .week
        case .price_per_month: return .month
        case .price_per_year: return .year
        default: return nil
        }
    }
}

/// A tag left as written, and why.
package struct TextTagProblem: Equatable, Sendable {
    package enum Reason: String, WireEnum, Error, Sendable {
        /// Not a tag of this version (or an argument where none is taken).
        case unknown_tag
        /// `@product` or the discount's product is not a product of the paywall.
        case unknown_product
        /// The product is the paywall's, but the store did not describe it.
        case product_not_loaded
        /// The product has no period, or no intro offer, for this tag.
        case not_applicable
        /// `discount_percent` without the product to compare with.
        case missing_reference
        /// The two products of a discount are in different currencies.
        case not_comparable
        /// The store's price string does not show the price's amount, so an amount computed
        /// from it cannot be written the store's way (or the amount is too large to compute).
        case price_not_learned
        /// The paywall has no product at all.
        case no_product
    }

    /// The tag as written, braces included.
    package let tag: String
    package let reason: Reason
    package let productId: String?
}

/// Fills text tags from one paywall's products. Pure: products in, text out.
package struct TextTagResolver: Sendable {
    /// The paywall's product ids, in its order.
    private let productIds: [String]
    private let products: [String: StoreProduct]
    /// Each described product's price format, completed by others in its currency.
    private let formats: [String: PriceFormat]
    /// The first phase of the offer the paywall applies to each product: the `intro_*` tags.
    private let introPhases: [String: OfferPhase]

    /// `offerIds`: the offer the paywall names for a product (Google Play); a product without
    /// one has its App Store intro offer's tags.
    package init(paywallProductIds: [String], described: [StoreProduct], offerIds: [String: String] = [:]) {
        productIds = paywallProductIds
        var products: [String: StoreProduct] = [:]
        for product in described where paywallProductIds.contains(product.vendorProductId) { products[product.vendorProductId] = product }
        self.products = products
        introPhases = products.compactMapValues { $0.offer(named: offerIds[$0.vendorProductId])?.phases.first }
        var learned: [(id: String, currency: String, format: PriceFormat)] = []
        for id in paywallProductIds {
            guard let product = products[id], let format = TextTagResolver.learn(product.price) else { continue }
            learned.append((id, product.price.currencyCode, format))
        }
        var formats: [String: PriceFormat] = [:]
        for entry in learned {
            formats[entry.id] = learned.filter { $0.currency == entry.currency && $0.id != entry.id }
                .reduce(entry.format) { $0.completed(by: $1.format) }
        }
        self.formats = formats
    }

    /// The format a price's own string shows; nil when it cannot be learned.
    package static func learn(_ price: Price) -> PriceFormat? {
        guard let amount = DecimalAmount(price.amount) else { return nil }
        return PriceFormat.learn(amount: amount, written: price.localizedString)
    }

    /// Every tag that can be filled for `productId`, by name (`price_per_month`,
    /// `discount_percent:<id>`), in `TextTag` order and then the paywall's.
    package func table(for productId: String) -> [(name: String, text: String)] {
        var table: [(name: String, text: String)] = []
        for tag in TextTag.allCases where tag != .discount_percent {
            if case .success(let text) = value(tag, argument: nil, productId: productId) { table.append((tag.rawValue, text)) }
        }
        for other in productIds where other != productId {
            if case .success(let text) = value(.discount_percent, argument: other, productId: productId) {
                table.append(("discount_percent:\(other)", text))
            }
        }
        return table
    }

    /// One tag's text for a product of the paywall, or why there is none.
    package func value(_ tag: TextTag, argument: String?, productId: String) -> Result<String, TextTagProblem.Reason> {
        guard let product = products[productId] else {
            return .failure(productIds.contains(productId) ? .product_not_loaded : .unknown_product)
        }
        switch tag {
        case .price:
            return .success(product.price.localizedString)
        case .price_per_day, .price_per_week, .price_per_month, .price_per_year:
            guard let period = product.period, let unit = tag.perUnit else { return .failure(.not_applicable) }
            guard let format = formats[productId], let amount = DecimalAmount(product.price.amount),
                  let perUnit = PeriodPricing.price(amount, every: period, per: unit, decimals: format.fractionDigits),
                  let text = format.write(perUnit) else { return .failure(.price_not_learned) }
            return .success(text)
        case .period:
            guard let period = product.period else { return .failure(.not_applicable) }
            return .success(period.everyText)
        case .intro_price:
            guard let offer = introPhases[productId] else { return .failure(.not_applicable) }
            return .success(offer.price.localizedString)
        case .intro_period:
            guard let offer = introPhases[productId] else { return .failure(.not_applicable) }
            return .success(offer.period.everyText)
        case .intro_duration:
            guard let offer = introPhases[productId] else { return .failure(.not_applicable) }
            return .success(SubscriptionPeriod(unit: offer.period.unit, numberOfUnits: offer.period.numberOfUnits * offer.numberOfPeriods).localized)
        case .discount_percent:
            guard let argument else { return .failure(.missing_reference) }
            guard let reference = products[argument] else {
                return .failure(productIds.contains(argument) ? .product_not_loaded : .unknown_product)
            }
            guard let period = product.period, let referencePeriod = reference.period else { return .failure(.not_applicable) }
            guard product.price.currencyCode == reference.price.currencyCode else { return .failure(.not_comparable) }
            guard let amount = DecimalAmount(product.price.amount), let referenceAmount = DecimalAmount(reference.price.amount),
                  let percent = PeriodPricing.discountPercent(amount, every: period, against: referenceAmount, every: referencePeriod) else {
                return .failure(.price_not_learned)
            }
            return .success(formats[productId]?.writeWhole(percent) ?? String(percent))
        }
    }

    // MARK: - Filling texts

    /// `text` with its tags filled for `product` (or the paywall's first); `jsonEscaped` when
    /// the text is JSON and tags sit inside its strings (a remote config's `data`).
    package func fill(_ text: String, product: String?, jsonEscaped: Bool = false) -> (text: String, problems: [TextTagProblem]) {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var problems: [TextTagProblem] = []
        var index = 0
        while index < bytes.count {
            guard let open = TextTagResolver.find([0x7B, 0x7B], in: bytes, from: index),
                  let close = TextTagResolver.find([0x7D, 0x7D], in: bytes, from: open + 2) else {
                output.append(contentsOf: bytes[index...])
                break
            }
            output.append(contentsOf: bytes[index..<open])
            let written = Array(bytes[open..<(close + 2)])
            let inside = String(decoding: bytes[(open + 2)..<close], as: UTF8.self)
            switch resolve(inside, product: product) {
            case .success(let filled):
                output.append(contentsOf: jsonEscaped ? TextTagResolver.jsonEscaped(filled) : Array(filled.utf8))
            case .failure(let problem):
                output.append(contentsOf: written)
                problems.append(TextTagProblem(tag: String(decoding: written, as: UTF8.self), reason: problem.reason,
                                               productId: problem.productId))
            }
            index = close + 2
        }
        return (String(decoding: output, as: UTF8.self), problems)
    }

    /// Every string of `value` with its tags filled; an object whose `product_id` names a
    /// product of the paywall is that product's context for the strings inside it.
    package func fill(_ value: JSONValue, product: String?) -> (value: JSONValue, problems: [TextTagProblem]) {
        var problems: [TextTagProblem] = []
        let filled = fill(value, product: product, problems: &problems, depth: 0)
        return (filled, problems)
    }

    private func fill(_ value: JSONValue, product: String?, problems: inout [TextTagProblem], depth: Int) -> JSONValue {
        guard depth < 128 else { return value }
        switch value {
        case .string(let text):
            guard text.utf8.count >= 4 else { return value }
            let (filled, found) = fill(text, product: product)
            problems += found
            return .string(filled)
        case .array(let items):
            return .array(items.map { fill($0, product: product, problems: &problems, depth: depth + 1) })
        case .object(var object):
            var context = product
            if case .string(let id)? = object["product_id"], productIds.contains(id) { context = id }
            for member in object.members {
                object.set(member.key, fill(member.value, product: context, problems: &problems, depth: depth + 1))
            }
            return .object(object)
        default:
            return value
        }
    }

    /// One tag's text from what its braces hold: `name`, `name:argument`, `…@product`.
    private func resolve(_ inside: String, product context: String?) -> Result<String, ProblemOf> {
        var body = Substring(inside)
        while body.first == " " { body.removeFirst() }
        while body.last == " " { body.removeLast() }
        var productId = context ?? productIds.first
        if let at = body.firstIndex(of: "@") {
            productId = String(body[body.index(after: at)...])
            body = body[..<at]
        }
        var argument: String?
        if let colon = body.firstIndex(of: ":") {
            argument = String(body[body.index(after: colon)...])
            body = body[..<colon]
        }
        guard let tag = TextTag(rawValue: String(body)), (argument == nil || tag == .discount_percent), argument?.isEmpty != true,
              productId?.isEmpty != true else {
            return .failure(ProblemOf(reason: .unknown_tag, productId: nil))
        }
        guard let productId else { return .failure(ProblemOf(reason: .no_product, productId: nil)) }
        switch value(tag, argument: argument, productId: productId) {
        case .success(let text): return .success(text)
        case .failure(let reason): return .failure(ProblemOf(reason: reason, productId: productId))
        }
    }

    private struct ProblemOf: Error {
        let reason: TextTagProblem.Reason
        let productId: String?
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index + 1] == needle[1] { return index }
            index += 1
        }
        return nil
    }

    /// A text as it goes inside a JSON string.
    private static func jsonEscaped(_ text: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.string(text)
        return Array(writer.bytes.dropFirst().dropLast())
    }
}

extension SubscriptionPeriod {
    /// What a price is for: `month` for one, `3 months` for several.
    package var everyText: String { numberOfUnits == 1 ? unit.rawValue : localized }
}
