import PaywireWire

/// What a restore answer (`RestoreResponse`) says beside its profile: which products were
/// restored, which of them the backend moved here from another profile, and whether the
/// backend kept every one with its owner (`--transfer-policy keep`).
struct RestoreAnswer {
    /// `restored[].vendor_product_id`; nil when the answer has no list.
    let restoredIds: [String]?
    let transferred: [PurchaseTransfer]
    /// `refused[]` entries with code `belongs_to_another_profile`: their transaction ids.
    let keptWithOwner: [String]

    init(_ body: [UInt8], profileId: String) {
        var document = JSONObject()
        if case .object(let parsed)? = try? JSONParser.parse(body) { document = parsed }
        if case .array(let list)? = document["restored"] {
            restoredIds = list.compactMap { item in
                if case .object(let entry) = item, case .string(let id)? = entry["vendor_product_id"] { return id }
                return nil
            }
        } else {
            restoredIds = nil
        }
        transferred = PurchaseTransfer.restored(document["restored"], to: profileId)
        var kept: [String] = []
        if case .array(let refused)? = document["refused"] {
            for item in refused {
                guard case .object(let entry) = item, case .string("belongs_to_another_profile")? = entry["code"],
                      case .string(let id)? = entry["transaction_id"] else { continue }
                kept.append(id)
            }
        }
        keptWithOwner = kept
    }

    /// The restore's failure when nothing was restored and the backend kept purchases with
    /// their owner: the app can tell the user the purchases belong to another account.
    var keptByOwner: WireError? {
        guard restoredIds?.isEmpty ?? true, !keptWithOwner.isEmpty else { return nil }
        return WireError(.belongsToAnotherProfile,
                         "the store's purchases belong to another profile, and the backend keeps them there (its transfer policy is keep)",
                         details: JSONObject([("transaction_ids", .array(keptWithOwner.map { .string($0) }))]))
    }
}
