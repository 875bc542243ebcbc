import PaywireWire

/// The profile as the backend knows it: the answer of `GET {base_url}/v1/profiles/{id}`, and
/// of `POST /v1/purchases` and `/v1/restores` (documented in `api/openapi.yaml`). Its access is
/// the truth: validated purchases, purchases made elsewhere (another device, the web), refunds.
///
///     {"profile": {"customer_user_id"?, "is_test_user"?, "access_levels"?: {<id>: grant},
///      "subscriptions"?: {<vendor_product_id>: grant}, "custom_attributes"?: {...}}}
///     grant: {"vendor_product_id", "activated_at": ISO 8601, "expires_at": ISO 8601 | null,
///             "transaction_id"?, lifecycle members (Grant+JSON)?}
///     "non_subscriptions"?: {<vendor_product_id>: [{purchase_id, purchased_at, is_consumable?, ...}]}
///     GET: 304 (unchanged)   404 (the backend does not know the profile yet)
///
/// The backend writes its profiles with `Snapshot.json` (RemoteProfile+JSON) and reads authored
/// ones with `parse(profile:)`: one form, read and written in one place.
public enum RemoteProfile {
    /// What the backend said, ready to merge: a value.
    public struct Snapshot: Sendable {
        /// Access level id -> the grant that stands for it, in order.
        public var accessLevels: [(id: String, grant: Profile.Grant)] = []
        /// Subscriptions by vendor product id, in order.
        public var subscriptions: [(id: String, grant: Profile.Grant)] = []
        /// Consumable and non-consumable purchases by vendor product id, oldest first.
        public var nonSubscriptions: [(id: String, purchases: [Profile.NonSubscription])] = []
        /// The profile's custom attributes.
        public var customAttributes = JSONObject()
        /// The backend counts the profile's purchases as tests (sandbox).
        public var isTestUser = false

        /// An empty profile: no grants, no purchases, no attributes.
        public init() {}

        /// The snapshot with every grant marked as the device judged the answer's signature.
        package func marked(_ verification: Verification) -> Snapshot {
            var next = self
            for index in next.accessLevels.indices { next.accessLevels[index].grant.verification = verification }
            for index in next.subscriptions.indices { next.subscriptions[index].grant.verification = verification }
            return next
        }
    }

    /// Reads a 200 body; a malformed one is a `decoding_failed` naming the field.
    package static func parse(_ body: [UInt8]) throws(WireError) -> Snapshot {
        guard case .object(let document)? = try? JSONParser.parse(body), case .object(let profile)? = document["profile"] else {
            throw WireError(.decodingFailed, "the backend's profile response is not {profile: {...}}")
        }
        return try parse(profile: profile)
    }

    /// Reads the `profile` object of an answer; a malformed one is a `decoding_failed` naming the
    /// field. Every grant and purchase read is `verified`, and every grant the backend's (`source`).
    public static func parse(profile: JSONObject) throws(WireError) -> Snapshot {
        var snapshot = Snapshot()
        func grants(_ key: String) throws(WireError) -> [(id: String, grant: Profile.Grant)] {
            guard let value = profile[key] else { return [] }
            guard case .object(let list) = value else { throw malformed("profile.\(key)", "expected an object") }
            var result: [(id: String, grant: Profile.Grant)] = []
            for member in list.members {
                let path = "profile.\(key).\(member.key)"
                guard case .object(let fields) = member.value else { throw malformed(path, "expected {vendor_product_id, activated_at, ...}") }
                var grant = try Profile.Grant(fields, path: path)
                grant.verified = true
                grant.source = .backend
                // Until the device has checked the answer's signature (`marked`).
                grant.verification = .not_requested
                result.append((member.key, grant))
            }
            return result
        }
        func purchases() throws(WireError) -> [(id: String, purchases: [Profile.NonSubscription])] {
            guard let value = profile["non_subscriptions"] else { return [] }
            guard case .object(let list) = value else { throw malformed("profile.non_subscriptions", "expected an object") }
            var result: [(id: String, purchases: [Profile.NonSubscription])] = []
            for member in list.members {
                let path = "profile.non_subscriptions.\(member.key)"
                guard case .array(let items) = member.value else { throw malformed(path, "expected an array") }
                var read: [Profile.NonSubscription] = []
                for (index, item) in items.enumerated() {
                    guard case .object(let fields) = item else { throw malformed("\(path)[\(index)]", "expected an object") }
                    var purchase = try Profile.NonSubscription(fields, productId: member.key, path: "\(path)[\(index)]")
                    purchase.verified = true
                    read.append(purchase)
                }
                result.append((member.key, read))
            }
            return result
        }
        if case .bool(true)? = profile["is_test_user"] { snapshot.isTestUser = true }
        snapshot.accessLevels = try grants("access_levels")
        snapshot.subscriptions = try grants("subscriptions")
        snapshot.nonSubscriptions = try purchases()
        switch profile["custom_attributes"] {
        case nil, .null?: break
        case .object(let attributes)?: snapshot.customAttributes = attributes
        default: throw malformed("profile.custom_attributes", "expected an object")
        }
        return snapshot
    }

    private static func malformed(_ field: String, _ message: String) -> WireError {
        WireError(.decodingFailed, "the backend's profile is malformed at \(field): \(message)",
                  details: JSONObject([("field", .string(field))]))
    }

    /// The device's profile with the backend's answer applied. The backend's access levels and
    /// subscriptions replace the device's (a refund or a refused receipt revokes), except grants
    /// of transactions the backend has not answered yet (`pending`), which stay until it does
    /// (the device's own: offline grants give way to the answer).
    /// A backend attribute fills a key the device has not set: the device's own `update_profile`
    /// calls are newer than anything it has not sent.
    package static func apply(_ snapshot: Snapshot, to profile: Profile, pending: Set<String>) -> Profile {
        var next = profile
        next.accessLevels = snapshot.accessLevels
        next.subscriptions = snapshot.subscriptions
        next.isTestUser = snapshot.isTestUser
        for (id, grant) in profile.accessLevels where isPending(grant, pending) { Profile.merge(grant, as: id, into: &next.accessLevels) }
        for (id, grant) in profile.subscriptions where isPending(grant, pending) { Profile.merge(grant, as: id, into: &next.subscriptions) }
        next.nonSubscriptions = snapshot.nonSubscriptions
        for (_, purchases) in profile.nonSubscriptions {
            for purchase in purchases where !purchase.verified && pending.contains(purchase.purchaseId) { next.record(purchase) }
        }
        for member in snapshot.customAttributes.members where next.customAttributes[member.key] == nil {
            next.customAttributes.set(member.key, member.value)
        }
        return next
    }

    private static func isPending(_ grant: Profile.Grant, _ pending: Set<String>) -> Bool {
        // An offline grant is the store's word of the moment, never a purchase waiting for the
        // backend, even when the store names a transaction that is.
        guard !grant.verified, grant.source != .offline, let transactionId = grant.transactionId else { return false }
        return pending.contains(transactionId)
    }
}
