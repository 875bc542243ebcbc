import PaywireWire

/// What a store says about one transaction, as the device claims it: the members a purchase
/// (`POST /v1/purchases`) and each transaction of a restore (`POST /v1/restores`) carry alike.
/// The backend verifies it with the store (`verification`, `signed_transaction`) before it
/// grants anything.
public struct TransactionClaim: Equatable, Sendable {
    /// The most a store's proof (`verification`, `signed_transaction`) may take, in characters.
    public static let maxProofLength = 256 << 10

    public let transactionId: String
    public let originalTransactionId: String
    public let vendorProductId: String
    /// The store's proof, passed through untouched (may be empty: a store the backend trusts
    /// without one, with `--trust-host-stores`).
    public let verification: String
    /// When it was bought (ms since the epoch).
    public let purchasedAt: WideInt
    public let environment: StoreEnvironment
    public let store: StoreName
    /// An App Store transaction's JWS (StoreKit 2's jwsRepresentation): the backend takes
    /// every fact of the purchase from it. Nil for other stores.
    public let signedTransaction: String?

    public init(transactionId: String, originalTransactionId: String, vendorProductId: String, verification: String,
                purchasedAt: WideInt, environment: StoreEnvironment, store: StoreName, signedTransaction: String?) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.vendorProductId = vendorProductId
        self.verification = verification
        self.purchasedAt = purchasedAt
        self.environment = environment
        self.store = store
        self.signedTransaction = signedTransaction
    }

    /// The rules of its members, by their paths under `path` (`transactions[2].`, or none).
    public func validate(at path: String = "") throws(WireError) {
        try RecordRules.check(transactionId, path + "transaction_id")
        try RecordRules.check(originalTransactionId, path + "original_transaction_id")
        try RecordRules.check(vendorProductId, path + "vendor_product_id")
        try RecordRules.check(verification, path + "verification", allowEmpty: true, maxLength: Self.maxProofLength)
        try RecordRules.checkCount(purchasedAt, path + "purchased_at")
        try RecordRules.check(store.rawValue, path + "store", maxLength: 64)
        if let signedTransaction { try RecordRules.check(signedTransaction, path + "signed_transaction", maxLength: Self.maxProofLength) }
    }

    /// Its members into an open object.
    public func writeMembers(to writer: inout JSONWriter) {
        writer.member("transaction_id", transactionId)
        writer.member("original_transaction_id", originalTransactionId)
        writer.member("vendor_product_id", vendorProductId)
        writer.member("verification", verification)
        writer.member("purchased_at", purchasedAt)
        writer.member("environment", environment.rawValue)
        writer.member("store", store.rawValue)
        if let signedTransaction { writer.member("signed_transaction", signedTransaction) }
    }

    /// Reads and checks the members of `fields`.
    init(_ fields: Fields) throws(WireError) {
        try RecordRules.refuseNulls(fields, ["signed_transaction"])
        let environment = try fields.optionalEnum("environment", StoreEnvironment.self)
        guard let environment else { throw WireError.wrongParam(fields.fieldPath("environment"), "is required") }
        self.init(transactionId: try fields.string("transaction_id"), originalTransactionId: try fields.string("original_transaction_id"),
                  vendorProductId: try fields.string("vendor_product_id"), verification: try fields.string("verification"),
                  purchasedAt: try fields.wide("purchased_at"), environment: environment, store: StoreName(rawValue: try fields.string("store")),
                  signedTransaction: try fields.optionalString("signed_transaction"))
        try validate(at: fields.path.isEmpty ? "" : fields.path + ".")
    }
}
