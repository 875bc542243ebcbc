import PaywireWire

/// A purchase the backend moved from one profile to another, by its transfer policy (a restore
/// on a second profile, or an identify that joined the customer's profile): what the profile
/// event of that answer lists as `transferred`.
struct PurchaseTransfer: Equatable, Sendable {
    let transactionId: String
    let vendorProductId: String
    let fromProfileId: String
    let toProfileId: String

    /// `{transaction_id, vendor_product_id, from_profile_id, to_profile_id}` (`$defs.transfer`).
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("transaction_id", transactionId)
            writer.member("vendor_product_id", vendorProductId)
            writer.member("from_profile_id", fromProfileId)
            writer.member("to_profile_id", toProfileId)
        }
    }

    /// The identity answer's `transferred` list (`Transfer` in `api/openapi.yaml`). An entry
    /// missing a member is skipped: it cannot be told to the app, and the profile beside it is
    /// still the truth.
    static func list(_ value: JSONValue?) -> [PurchaseTransfer] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { item in
            guard case .object(let entry) = item,
                  case .string(let transaction)? = entry["transaction_id"], case .string(let product)? = entry["vendor_product_id"],
                  case .string(let from)? = entry["from_profile_id"], case .string(let to)? = entry["to_profile_id"] else { return nil }
            return PurchaseTransfer(transactionId: transaction, vendorProductId: product, fromProfileId: from, toProfileId: to)
        }
    }

    /// The restore answer's `restored` entries that name a `from_profile_id`: moved to `profileId`.
    static func restored(_ value: JSONValue?, to profileId: String) -> [PurchaseTransfer] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { item in
            guard case .object(let entry) = item, case .string(let from)? = entry["from_profile_id"],
                  case .string(let transaction)? = entry["transaction_id"], case .string(let product)? = entry["vendor_product_id"] else { return nil }
            return PurchaseTransfer(transactionId: transaction, vendorProductId: product, fromProfileId: from, toProfileId: profileId)
        }
    }
}

extension [PurchaseTransfer] {
    /// The `transferred` member, written only when something moved.
    func writeMember(to writer: inout JSONWriter) {
        guard !isEmpty else { return }
        writer.key("transferred")
        writer.array { writer in for transfer in self { transfer.write(to: &writer) } }
    }
}
