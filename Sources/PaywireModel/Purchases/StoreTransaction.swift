import PaywireWire

/// A transaction as the store reported it. The backend validates it (`verification` is the
/// store's proof, passed through untouched) and answers the profile; only then is it finished.
package struct StoreTransaction: Equatable, Sendable {
    package let transactionId: String
    package let originalTransactionId: String
    package let vendorProductId: String
    /// When it was bought (ms).
    package let purchasedAt: WideInt
    package let environment: StoreEnvironment
    /// Which store: `test`, or what the host names (`app_store`, `play_store`, ...).
    package let store: StoreName
    package let verification: String
    /// An App Store transaction's JWS (StoreKit 2's jwsRepresentation), passed to the backend
    /// untouched: the backend takes every fact of the purchase from it. Nil for other stores.
    package var signedTransaction: String?
    /// The store's own expiry, when it gives one.
    package let expiresAt: WideInt?
    /// What the host says the product is, when it says (`report_transaction`, `store.purchase`).
    package var productType: ProductType?
    /// The access level the host names, for a product neither the paywall nor the store names one for.
    package var accessLevelId: String?

    /// What the device claims of it to the backend (`POST /v1/purchases`, each transaction of
    /// `POST /v1/restores`).
    package var claim: TransactionClaim {
        TransactionClaim(transactionId: transactionId, originalTransactionId: originalTransactionId, vendorProductId: vendorProductId,
                         verification: verification, purchasedAt: purchasedAt, environment: environment, store: store,
                         signedTransaction: signedTransaction)
    }

    /// The transaction the device kept in a claim, as the store reported it then.
    package init(_ claim: TransactionClaim) {
        self.init(transactionId: claim.transactionId, originalTransactionId: claim.originalTransactionId, vendorProductId: claim.vendorProductId,
                  purchasedAt: claim.purchasedAt, environment: claim.environment, store: claim.store, verification: claim.verification,
                  expiresAt: nil)
        signedTransaction = claim.signedTransaction
    }

    /// A transaction in the wire shape the host reports (`store.purchase` answers,
    /// `store.restore` answers, `report_transaction`): `{transaction_id, original_transaction_id?,
    /// vendor_product_id?, purchased_at? (ISO 8601), environment?, store?, verification?,
    /// signed_transaction?, expires_at?, product_type?, access_level_id?}`. `productId` fills a missing `vendor_product_id`; `now` a missing purchase time.
    /// What the backend would refuse of it (`TransactionClaim.validate`) is refused here, naming
    /// the host's member: a purchase is never kept in a shape the backend cannot keep.
    package init(_ fields: Fields, productId: String?, now: WideInt) throws(WireError) {
        transactionId = try fields.identifier("transaction_id")
        originalTransactionId = try fields.optionalString("original_transaction_id").flatMap { $0.isEmpty ? nil : $0 } ?? transactionId
        guard let product = try fields.optionalString("vendor_product_id") ?? productId, !product.isEmpty else {
            throw WireError.wrongParam(fields.fieldPath("vendor_product_id"), "is required")
        }
        vendorProductId = product
        purchasedAt = try StoreTransaction.date(fields, "purchased_at") ?? now
        environment = try fields.optionalEnum("environment", StoreEnvironment.self) ?? .production
        store = StoreName(rawValue: try fields.optionalString("store") ?? "host")
        verification = try fields.optionalString("verification") ?? ""
        signedTransaction = try fields.optionalString("signed_transaction")
        if signedTransaction?.isEmpty == true { throw WireError.wrongParam(fields.fieldPath("signed_transaction"), "must not be empty") }
        expiresAt = try StoreTransaction.date(fields, "expires_at")
        productType = try fields.optionalEnum("product_type", ProductType.self)
        accessLevelId = try fields.optionalString("access_level_id").flatMap { $0.isEmpty ? nil : $0 }
        try claim.validate(at: fields.path.isEmpty ? "" : fields.path + ".")
    }

    package init(transactionId: String, originalTransactionId: String, vendorProductId: String, purchasedAt: WideInt,
         environment: StoreEnvironment, store: StoreName, verification: String, expiresAt: WideInt?) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.vendorProductId = vendorProductId
        self.purchasedAt = purchasedAt
        self.environment = environment
        self.store = store
        self.verification = verification
        self.expiresAt = expiresAt
    }

    /// `{transaction_id, product_id}`, as purchase results carry it.
    package func writeSummary(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("transaction_id", transactionId)
            writer.member("product_id", vendorProductId)
        }
    }

    private static func date(_ fields: Fields, _ key: String) throws(WireError) -> WideInt? {
        guard let text = try fields.optionalString(key) else { return nil }
        guard let parsed = ISODate.parse(text) else {
            throw WireError.wrongParam(fields.fieldPath(key), "'\(text)' is not an ISO 8601 UTC time like 2024-01-15T10:30:00.000Z")
        }
        return parsed
    }
}

/// The test store's proof of a transaction: `testsig1:` and the lowercase hex HMAC-MD5, under
/// the dev key, of the transaction id, original id, product id and purchase time (ms), one a
/// line. The server checks it (`isValid`), so a forged one is refused. It proves
/// nothing outside development: the key is public. The store's stand-in on the device and the
/// server's check of it are this one type.
public enum TestSignature {
    public static let defaultKey = "paywire-dev-signing-key"
    static let prefix = "testsig1:"

    public static func sign(transactionId: String, originalTransactionId: String, vendorProductId: String, purchasedAt: WideInt,
                     key: String) -> String {
        let payload = "\(transactionId)\n\(originalTransactionId)\n\(vendorProductId)\n\(purchasedAt)"
        return prefix + Hex.encode(hmac(key: Array(key.utf8), message: Array(payload.utf8)))
    }

    /// Whether `claim.verification` is `key`'s signature of the claim, compared in constant time
    /// (how long a refusal takes tells a forger nothing about how close it came).
    public static func isValid(_ claim: TransactionClaim, key: String) -> Bool {
        let expected = Array(sign(transactionId: claim.transactionId, originalTransactionId: claim.originalTransactionId,
                                  vendorProductId: claim.vendorProductId, purchasedAt: claim.purchasedAt, key: key).utf8)
        let given = Array(claim.verification.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }

    /// HMAC (RFC 2104) over MD5: block size 64.
    package static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? MD5.digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = MD5.digest(block.map { $0 ^ 0x36 } + message)
        return MD5.digest(block.map { $0 ^ 0x5c } + inner)
    }
}
