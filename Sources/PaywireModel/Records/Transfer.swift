import PaywireWire

/// A purchase the backend moved from one profile to another by its transfer policy (a restore
/// on a second profile, an identify that joined the customer's profile, a redeemed web
/// purchase): `Transfer` in api/openapi.yaml, `$defs.transfer` in the schema.
public struct Transfer: Equatable, Sendable {
    public let transactionId: String
    public let vendorProductId: String
    public let fromProfileId: String
    public let toProfileId: String

    public init(transactionId: String, vendorProductId: String, fromProfileId: String, toProfileId: String) {
        self.transactionId = transactionId
        self.vendorProductId = vendorProductId
        self.fromProfileId = fromProfileId
        self.toProfileId = toProfileId
    }

    /// `{transaction_id, vendor_product_id, from_profile_id, to_profile_id}`.
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("transaction_id", transactionId)
            writer.member("vendor_product_id", vendorProductId)
            writer.member("from_profile_id", fromProfileId)
            writer.member("to_profile_id", toProfileId)
        }
    }

    init(_ fields: Fields) throws(WireError) {
        self.init(transactionId: try RecordRules.text(fields, "transaction_id"),
                  vendorProductId: try RecordRules.text(fields, "vendor_product_id"),
                  fromProfileId: try RecordRules.text(fields, "from_profile_id"),
                  toProfileId: try RecordRules.text(fields, "to_profile_id"))
    }

    /// The entries of a `transferred` list (or of a restore's `restored`) that name a whole
    /// transfer; others are left out.
    static func readable(_ value: JSONValue?) -> [Transfer] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { item in
            guard case .object(let object) = item else { return nil }
            return try? Transfer(Fields(object))
        }
    }
}

extension [Transfer] {
    /// The `transferred` member, written only when something moved.
    public func writeMember(to writer: inout JSONWriter) {
        guard !isEmpty else { return }
        writer.key("transferred")
        writer.array { writer in for transfer in self { transfer.write(to: &writer) } }
    }
}
