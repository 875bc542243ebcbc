import PaywireModel
import PaywireWire

/// The body of `POST /v1/purchases` (api/openapi.yaml): one transaction, kept in the outbox's
/// money lane as it will be sent, and the backend's answer to it.
enum PurchaseRecord {
    enum State: String, Sendable { case purchased, pending }

    static func encode(eventId: String, transaction: StoreTransaction, state: State, type: ProductType, price: Price?, profile: Profile,
                       attribution: PurchaseAttribution?, observerMode: Bool) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 768)
        writer.object { writer in
            writer.member("event_id", eventId)
            writer.member("profile_id", profile.profileId)
            if let customerUserId = profile.customerUserId { writer.member("customer_user_id", customerUserId) }
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
            writer.member("product_type", type.rawValue)
            writer.member("observer_mode", observerMode)
            if let attribution {
                writer.key("attribution")
                attribution.write(to: &writer)
            }
        }
        return writer.bytes
    }

    /// What the queue needs to know of a kept record: which transaction, and whether the core
    /// (not the app, in observer mode) finishes it.
    struct Kept: Sendable {
        let transaction: StoreTransaction
        /// The profile it was bought for: an answer about another profile is not applied.
        let profileId: String
        let finishedByCore: Bool
        /// Nil for records kept before product types were recorded.
        let productType: ProductType?
        /// Kept as `pending`: the store has not completed it, so there is nothing to acknowledge.
        let isPending: Bool
    }

    /// Reads back a kept record's transaction; nil when it is not a purchase record.
    static func kept(_ body: [UInt8]) -> Kept? {
        guard case .object(let object)? = try? JSONParser.parse(body),
              case .string(let id)? = object["transaction_id"], case .string(let product)? = object["vendor_product_id"] else { return nil }
        func text(_ key: String) -> String {
            if case .string(let value)? = object[key] { return value }
            return ""
        }
        var purchasedAt = 0
        if case .number(let time)? = object["purchased_at"] { purchasedAt = time.intValue ?? 0 }
        var transaction = StoreTransaction(transactionId: id, originalTransactionId: text("original_transaction_id"),
                                           vendorProductId: product, purchasedAt: purchasedAt,
                                           environment: StoreTransaction.Environment(rawValue: text("environment")) ?? .production,
                                           store: text("store"), verification: text("verification"), expiresAt: nil)
        if case .string(let jws)? = object["signed_transaction"] { transaction.signedTransaction = jws }
        var observer = false
        if case .bool(true)? = object["observer_mode"] { observer = true }
        return Kept(transaction: transaction, profileId: text("profile_id"), finishedByCore: !observer,
                    productType: ProductType(rawValue: text("product_type")), isPending: text("state") == State.pending.rawValue)
    }

    /// The backend's answer: its profile (nil when the body has none), and, for a refusal, why.
    static func answer(_ body: [UInt8]) -> (profile: RemoteProfile.Snapshot?, code: String?, message: String?) {
        guard case .object(let document)? = try? JSONParser.parse(body) else { return (nil, nil, nil) }
        var snapshot: RemoteProfile.Snapshot?
        if case .object(let profile)? = document["profile"] { snapshot = try? RemoteProfile.parse(profile: profile) }
        var code: String?
        var message: String?
        if case .object(let error)? = document["error"] {
            if case .string(let text)? = error["code"] { code = text }
            if case .string(let text)? = error["message"] { message = text }
        }
        return (snapshot, code, message)
    }
}
