import PaywireWire

/// One JSON form of a grant and of a non-subscription purchase, shared by the wire (events and
/// results), the stored profile and the backend's answers, so the three cannot drift. Times are
/// ISO 8601 UTC; a stored profile from before this form (times as ms) still reads.
extension Profile.Grant {
    /// The members after `is_active` (and `id`), in wire order; `transaction_id`,
    /// `ownership_type` and `will_renew_vendor_product_id` only when known.
    public var members: [(key: String, value: JSONValue)] {
        var list: [(key: String, value: JSONValue)] = [
            ("vendor_product_id", .string(vendorProductId)),
            ("store", GrantJSON.text(store)),
            ("is_sandbox", .bool(isSandbox)),
            ("is_lifetime", .bool(isLifetime)),
            ("activated_at", GrantJSON.date(activatedAt)),
            ("starts_at", GrantJSON.date(startsAt)),
            ("renewed_at", GrantJSON.date(renewedAt)),
            ("expires_at", GrantJSON.date(expiresAt)),
            ("will_renew", .bool(willRenew)),
            ("is_in_grace_period", .bool(isInGracePeriod)),
            ("grace_period_expires_at", GrantJSON.date(gracePeriodExpiresAt)),
            ("billing_issue_detected_at", GrantJSON.date(billingIssueDetectedAt)),
            ("unsubscribed_at", GrantJSON.date(unsubscribedAt)),
            ("cancellation_reason", GrantJSON.text(cancellationReason?.rawValue)),
            ("is_refund", .bool(isRefund)),
            ("refunded_at", GrantJSON.date(refundedAt)),
            ("active_introductory_offer_type", GrantJSON.text(activeIntroductoryOfferType?.rawValue)),
            ("active_promotional_offer_id", GrantJSON.text(activePromotionalOfferId)),
            ("original_transaction_id", GrantJSON.text(originalTransactionId)),
            ("verified", .bool(verified)),
        ]
        if let transactionId { list.append(("transaction_id", .string(transactionId))) }
        // Only when the store said: grants of other stores keep their shape.
        if let ownershipType { list.append(("ownership_type", .string(ownershipType.rawValue))) }
        if let willRenewVendorProductId { list.append(("will_renew_vendor_product_id", .string(willRenewVendorProductId))) }
        return list
    }

    /// `members` with `source` and `verification` after `verified`: the device's form (its wire
    /// and its stored profile). The backend's answers leave both out: every grant in them is its
    /// own, and whether its signature holds is for the device to say.
    package var deviceMembers: [(key: String, value: JSONValue)] {
        var list = members
        let at = (list.firstIndex { $0.key == "verified" } ?? list.count - 1) + 1
        list.insert(contentsOf: [("source", .string(source.rawValue)), ("verification", .string(verification.rawValue))], at: at)
        return list
    }

    /// Reads a grant at `path`. Left-out lifecycle members take their defaults (`is_lifetime`:
    /// whether `expires_at` is null; `source`: `backend` when verified, else `device`); a
    /// member of the wrong type is an error naming its path.
    package init(_ fields: JSONObject, path: String) throws(WireError) {
        let reader = GrantJSON(fields: fields, path: path)
        guard let product = try reader.text("vendor_product_id"), !product.isEmpty else {
            throw reader.wrong("vendor_product_id", "is required")
        }
        guard let activated = try reader.date("activated_at") else { throw reader.wrong("activated_at", "is required") }
        self.init(vendorProductId: product, activatedAt: activated, expiresAt: try reader.date("expires_at"))
        verified = try reader.flag("verified") ?? false
        source = try reader.choice("source", GrantSource.self) ?? (verified ? .backend : .device)
        // Never read back: a stored grant's is judged again against the signature kept beside
        // it (`StoredProfileCheck`), and an answer's is the device's check of that answer.
        verification = source == .backend ? .not_requested : .store
        transactionId = try reader.text("transaction_id")
        originalTransactionId = try reader.text("original_transaction_id")
        store = try reader.text("store")
        isSandbox = try reader.flag("is_sandbox") ?? false
        isLifetime = try reader.flag("is_lifetime") ?? (expiresAt == nil)
        startsAt = try reader.date("starts_at")
        renewedAt = try reader.date("renewed_at")
        willRenew = try reader.flag("will_renew") ?? false
        isInGracePeriod = try reader.flag("is_in_grace_period") ?? false
        gracePeriodExpiresAt = try reader.date("grace_period_expires_at")
        billingIssueDetectedAt = try reader.date("billing_issue_detected_at")
        unsubscribedAt = try reader.date("unsubscribed_at")
        cancellationReason = try reader.choice("cancellation_reason", CancellationReason.self)
        isRefund = try reader.flag("is_refund") ?? false
        refundedAt = try reader.date("refunded_at")
        activeIntroductoryOfferType = try reader.choice("active_introductory_offer_type", IntroOffer.PaymentMode.self)
        activePromotionalOfferId = try reader.text("active_promotional_offer_id")
        ownershipType = try reader.choice("ownership_type", OwnershipType.self)
        willRenewVendorProductId = try reader.text("will_renew_vendor_product_id")
    }
}

extension Profile.NonSubscription {
    /// Its members in wire order (`non_subscriptions.<product>[i]`).
    public var members: [(key: String, value: JSONValue)] {
        [("purchase_id", .string(purchaseId)), ("vendor_product_id", .string(vendorProductId)),
         ("purchased_at", GrantJSON.date(purchasedAt)), ("is_consumable", .bool(isConsumable)),
         ("is_refund", .bool(isRefund)), ("is_sandbox", .bool(isSandbox)), ("store", GrantJSON.text(store)),
         ("verified", .bool(verified))]
    }

    /// Reads one purchase of `productId` at `path`.
    package init(_ fields: JSONObject, productId: String, path: String) throws(WireError) {
        let reader = GrantJSON(fields: fields, path: path)
        guard let id = try reader.text("purchase_id"), !id.isEmpty else { throw reader.wrong("purchase_id", "is required") }
        guard let purchasedAt = try reader.date("purchased_at") else { throw reader.wrong("purchased_at", "is required") }
        self.init(purchaseId: id, vendorProductId: try reader.text("vendor_product_id") ?? productId, purchasedAt: purchasedAt,
                  isConsumable: try reader.flag("is_consumable") ?? false)
        isRefund = try reader.flag("is_refund") ?? false
        isSandbox = try reader.flag("is_sandbox") ?? false
        store = try reader.text("store")
        verified = try reader.flag("verified") ?? false
    }
}

/// Typed reads of one grant object, each failure naming the member's path.
package struct GrantJSON {
    package let fields: JSONObject
    package let path: String

    package static func date(_ milliseconds: WideInt?) -> JSONValue { milliseconds.map { .string(ISODate.format(milliseconds: $0)) } ?? .null }
    package static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    package func wrong(_ key: String, _ message: String) -> WireError {
        WireError(.decodingFailed, "\(path).\(key) \(message)", details: JSONObject([("field", .string("\(path).\(key)"))]))
    }

    /// An ISO 8601 time, or ms since the epoch (stored profiles of earlier versions); null is nil.
    package func date(_ key: String) throws(WireError) -> WideInt? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let text)?:
            guard let parsed = ISODate.parse(text) else { throw wrong(key, "is not an ISO 8601 UTC time") }
            return parsed
        case .number(let number)?:
            guard let value = number.wideValue else { throw wrong(key, "is not a time") }
            return value
        default: throw wrong(key, "expected an ISO 8601 time or null")
        }
    }

    package func text(_ key: String) throws(WireError) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw wrong(key, "expected a string or null")
        }
    }

    package func flag(_ key: String) throws(WireError) -> Bool? {
        switch fields[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw wrong(key, "expected a boolean")
        }
    }

    package func choice<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws(WireError) -> T? where T.RawValue == String {
        guard let text = try text(key) else { return nil }
        guard let value = T(rawValue: text) else {
            throw wrong(key, "'\(text)' is not one of: \(T.allCases.map { $0.rawValue }.joined(separator: ", "))")
        }
        return value
    }
}
