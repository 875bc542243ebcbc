import PaywireWire

/// The body of `POST /v1/purchases`: one transaction the device reports, kept in its outbox's
/// money lane exactly as it will be sent, and read back from there with `decode` too.
public struct PurchaseClaim: Equatable, Sendable {
    /// The price the device knew, as its exact decimal text and currency.
    public struct Price: Equatable, Sendable {
        public let amount: JSONNumber
        public let currencyCode: String

        public init(amount: JSONNumber, currencyCode: String) {
            self.amount = amount
            self.currencyCode = currencyCode
        }

        /// Whether the backend keeps it: a number >= 0 and an ISO 4217 code of three letters.
        /// A price that breaks the rule is left out of a claim, never a reason to lose it.
        public var isKeepable: Bool {
            !amount.text.hasPrefix("-") && currencyCode.utf8.count == 3 && currencyCode.utf8.allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
        }
    }

    public let eventId: String
    public let profileId: String
    public let customerUserId: String?
    public let transaction: TransactionClaim
    public let price: Price?
    public let state: PurchaseState
    /// Nil in records kept before product types were recorded.
    public let productType: ProductType?
    /// The app finishes its own transactions (observer mode): the core only reports them.
    public let observerMode: Bool
    public let attribution: PurchaseAttribution?

    public init(eventId: String, profileId: String, customerUserId: String?, transaction: TransactionClaim, price: Price?,
                state: PurchaseState, productType: ProductType?, observerMode: Bool, attribution: PurchaseAttribution?) {
        self.eventId = eventId
        self.profileId = profileId
        self.customerUserId = customerUserId
        self.transaction = transaction
        self.price = price
        self.state = state
        self.productType = productType
        self.observerMode = observerMode
        self.attribution = attribution
    }

    public func validate() throws(WireError) {
        try RecordRules.checkEventId(eventId, "event_id")
        try Identity.checkProfileId(profileId, "profile_id")
        if let customerUserId { try Identity.checkCustomerUserId(customerUserId, "customer_user_id") }
        try transaction.validate()
        if let price, !price.isKeepable {
            throw WireError.wrongParam("price", "must be an amount >= 0 and a 3-letter currency code")
        }
        try attribution?.validate()
    }

    public func encode() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 768)
        writer.object { writer in
            writer.member("event_id", eventId)
            writer.member("profile_id", profileId)
            if let customerUserId { writer.member("customer_user_id", customerUserId) }
            transaction.writeMembers(to: &writer)
            if let price {
                writer.key("price")
                writer.object { writer in
                    writer.key("amount")
                    writer.number(price.amount)
                    writer.member("currency_code", price.currencyCode)
                }
            }
            writer.member("state", state.rawValue)
            if let productType { writer.member("product_type", productType.rawValue) }
            writer.member("observer_mode", observerMode)
            if let attribution {
                writer.key("attribution")
                attribution.write(to: &writer)
            }
        }
        return writer.bytes
    }

    /// Reads and checks a body (the backend's request, the device's kept record).
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> PurchaseClaim {
        try decode(parsed: try? JSONParser.parse(bytes))
    }

    /// Reads and checks a body already parsed (nil: it was no JSON).
    public static func decode(parsed: JSONValue?) throws(WireError) -> PurchaseClaim {
        let fields = try RecordRules.document(parsed: parsed, what: "a purchase")
        try RecordRules.refuseNulls(fields, ["customer_user_id", "price", "product_type", "observer_mode", "attribution"])
        var price: Price?
        if let given = try fields.optionalObject("price") {
            guard let amount = try given.optionalNumber("amount") else { throw WireError.wrongParam("price.amount", "is required") }
            price = Price(amount: amount, currencyCode: try given.string("currency_code"))
        }
        guard let state = try fields.optionalEnum("state", PurchaseState.self) else { throw WireError.wrongParam("state", "is required") }
        var attribution: PurchaseAttribution?
        if let given = try fields.optionalObject("attribution") { attribution = try PurchaseAttribution(given.object) }
        let claim = PurchaseClaim(
            eventId: try fields.string("event_id"), profileId: try fields.string("profile_id"),
            customerUserId: try fields.optionalString("customer_user_id"), transaction: try TransactionClaim(fields), price: price,
            state: state, productType: try fields.optionalEnum("product_type", ProductType.self),
            observerMode: try fields.optionalBool("observer_mode") ?? false, attribution: attribution)
        try claim.validate()
        return claim
    }
}

/// The body of `POST /v1/restores`: transactions the store says the user owns, for the backend
/// to verify and grant to the profile. A claim carries at most `maxTransactions`, like a batch of
/// events: the backend refuses more before it verifies any (a restore of 4,000 claims cost a
/// server 32,000 log rows), and a device whose store restored more sends them in several claims.
public struct RestoreClaim: Equatable, Sendable {
    /// The most transactions one claim carries.
    public static let maxTransactions = 100
    /// Why a claim of more than `maxTransactions` is refused (decoding stops there).
    public static var tooManyTransactions: WireError {
        WireError.wrongParam("transactions", "a restore carries at most \(maxTransactions) transactions: send the rest in another")
    }

    /// The request's id: a retry of a restore that moved a purchase answers where it came from.
    public let eventId: String
    public let profileId: String
    public let customerUserId: String?
    public let transactions: [TransactionClaim]

    public init(eventId: String, profileId: String, customerUserId: String?, transactions: [TransactionClaim]) {
        self.eventId = eventId
        self.profileId = profileId
        self.customerUserId = customerUserId
        self.transactions = transactions
    }

    public func validate() throws(WireError) {
        try RecordRules.checkEventId(eventId, "event_id")
        try Identity.checkProfileId(profileId, "profile_id")
        if let customerUserId { try Identity.checkCustomerUserId(customerUserId, "customer_user_id") }
        guard transactions.count <= Self.maxTransactions else { throw Self.tooManyTransactions }
        for (index, transaction) in transactions.enumerated() { try transaction.validate(at: "transactions[\(index)].") }
    }

    public func encode() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256 + 384 * transactions.count)
        writer.object { writer in
            writer.member("event_id", eventId)
            writer.member("profile_id", profileId)
            if let customerUserId { writer.member("customer_user_id", customerUserId) }
            writer.key("transactions")
            writer.array { writer in
                for transaction in transactions { writer.object { writer in transaction.writeMembers(to: &writer) } }
            }
        }
        return writer.bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> RestoreClaim {
        try decode(parsed: try? JSONParser.parse(bytes))
    }

    /// Reads and checks a body already parsed (nil: it was no JSON).
    public static func decode(parsed: JSONValue?) throws(WireError) -> RestoreClaim {
        let fields = try RecordRules.document(parsed: parsed, what: "a restore")
        try RecordRules.refuseNulls(fields, ["customer_user_id"])
        var transactions: [TransactionClaim] = []
        guard try fields.array("transactions").count <= maxTransactions else { throw tooManyTransactions }
        for item in try fields.objects("transactions") { transactions.append(try TransactionClaim(item)) }
        let claim = RestoreClaim(eventId: try fields.string("event_id"), profileId: try fields.string("profile_id"),
                                 customerUserId: try fields.optionalString("customer_user_id"), transactions: transactions)
        try claim.validate()
        return claim
    }
}
