import PaywireWire

/// What a store says about one transaction: the part a signature covers and a restore carries.
struct TransactionClaim: Sendable {
    let transactionId: String
    let originalTransactionId: String
    let vendorProductId: String
    let verification: String
    let purchasedAt: Int
    let environment: String
    let store: String
    /// The claim as sent (for `/_dev/purchases`).
    let text: String
    /// An App Store claim's StoreKit 2 JWS, as sent; nil for other claims.
    var signedTransaction: String? = nil
    /// What the verified JWS says beyond the members above; nil until verified (and for
    /// claims without one).
    var signed: SignedFacts? = nil
}

/// Where a purchase was made: the paywall's experiment cell.
struct Attribution: Sendable {
    let placementId: String
    let abTestName: String
    let variationId: String
}

/// A `POST /v1/purchases` body.
struct PurchasePost: Sendable {
    let profileId: String
    let customerUserId: String?
    /// As sent, then as its signed transaction says once verified.
    var claim: TransactionClaim
    /// The price's exact decimal text and currency, when the device knew them (else the
    /// catalog's price counts).
    let amount: String?
    let currencyCode: String?
    let pending: Bool
    let attribution: Attribution?
}

/// A `POST /v1/restores` body.
struct RestorePost: Sendable {
    /// The request's id: a retry of a restore that moved a purchase answers where it came from.
    let eventId: String
    let profileId: String
    let customerUserId: String?
    var claims: [TransactionClaim]
}

/// A malformed purchase or restore body (`400 invalid_request`), naming the member.
struct RequestProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

enum PurchaseRequests {
    static func purchase(_ body: [UInt8]) throws(RequestProblem) -> PurchasePost {
        let object = try document(body)
        var amount: String?
        var currency: String?
        if let price = object["price"], price != .null {
            guard case .object = price else { throw RequestProblem("price must be an object {amount, currency_code}") }
            guard case .number(let number)? = price["amount"], !number.text.hasPrefix("-") else {
                throw RequestProblem("price.amount must be a JSON number >= 0")
            }
            guard let code = price["currency_code"]?.asString, code.count == 3 else {
                throw RequestProblem("price.currency_code must be a 3-letter code")
            }
            (amount, currency) = (number.text, code)
        }
        let state = try text(object, "state")
        guard state == "purchased" || state == "pending" else { throw RequestProblem("state must be purchased or pending") }
        if let observer = object["observer_mode"], observer.asBool == nil { throw RequestProblem("observer_mode must be a boolean") }
        var attribution: Attribution?
        if let cell = object["attribution"], cell != .null {
            guard cell.isObject else { throw RequestProblem("attribution must be an object") }
            for key in ["audience_name", "paywall_id", "paywall_name"] where cell[key] != nil && cell[key]?.asString == nil {
                throw RequestProblem("attribution.\(key) must be a string")
            }
            attribution = Attribution(placementId: try text(cell, "placement_id", path: "attribution."),
                                      abTestName: try text(cell, "ab_test_name", path: "attribution.", allowEmpty: true),
                                      variationId: try text(cell, "variation_id", path: "attribution."))
        }
        _ = try text(object, "event_id")
        return PurchasePost(profileId: try text(object, "profile_id"), customerUserId: try optionalText(object, "customer_user_id"),
                            claim: try claim(object), amount: amount, currencyCode: currency,
                            pending: state == "pending", attribution: attribution)
    }

    static func restore(_ body: [UInt8]) throws(RequestProblem) -> RestorePost {
        let object = try document(body)
        let eventId = try text(object, "event_id")
        guard let items = try member(object, "transactions").asArray else { throw RequestProblem("transactions must be an array") }
        var claims: [TransactionClaim] = []
        for (index, item) in items.enumerated() {
            do throws(RequestProblem) {
                claims.append(try claim(item))
            } catch {
                throw RequestProblem("transactions[\(index)]: \(error.message)")
            }
        }
        return RestorePost(eventId: eventId, profileId: try text(object, "profile_id"), customerUserId: try optionalText(object, "customer_user_id"),
                           claims: claims)
    }

    private static func claim(_ value: JSONValue) throws(RequestProblem) -> TransactionClaim {
        guard value.isObject else { throw RequestProblem("a transaction must be an object") }
        let environment = try text(value, "environment")
        guard environment == "sandbox" || environment == "production" else { throw RequestProblem("environment must be sandbox or production") }
        guard let purchasedAt = value["purchased_at"]?.asInt, (0...EventBatch.maxSafeInteger).contains(purchasedAt) else {
            throw RequestProblem("purchased_at must be an integer >= 0 (ms)")
        }
        guard let verification = value["verification"]?.asString else { throw RequestProblem("verification must be a string") }
        let store = try text(value, "store")
        var signedTransaction: String?
        if value["signed_transaction"] != nil { signedTransaction = try text(value, "signed_transaction") }
        return TransactionClaim(
            transactionId: try text(value, "transaction_id"), originalTransactionId: try text(value, "original_transaction_id"),
            vendorProductId: try text(value, "vendor_product_id"), verification: verification, purchasedAt: purchasedAt,
            environment: environment, store: store, text: String(decoding: value.encoded, as: UTF8.self),
            signedTransaction: signedTransaction)
    }

    private static func document(_ body: [UInt8]) throws(RequestProblem) -> JSONValue {
        guard let document = try? JSONValue(parsing: body), document.isObject else {
            throw RequestProblem("the body must be a JSON object")
        }
        return document
    }

    private static func member(_ object: JSONValue, _ key: String) throws(RequestProblem) -> JSONValue {
        guard let value = object[key] else { throw RequestProblem("\(key) is required") }
        return value
    }

    private static func text(_ object: JSONValue, _ key: String, path: String = "", allowEmpty: Bool = false) throws(RequestProblem) -> String {
        guard let value = object[key]?.asString, allowEmpty || !value.isEmpty else {
            throw RequestProblem("\(path)\(key) must be a\(allowEmpty ? "" : " non-empty") string")
        }
        return value
    }

    private static func optionalText(_ object: JSONValue, _ key: String) throws(RequestProblem) -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value.asString else { throw RequestProblem("\(key) must be a string") }
        return text
    }
}
