/// The profile as the backend knows it (`GET {base_url}/v1/profiles/{profile_id}`, documented
/// in `api/openapi.yaml`): access and subscriptions bought elsewhere (another device, the web),
/// and attributes set from elsewhere.
///
///     200 {"profile": {"customer_user_id"?, "access_levels"?: {<id>: grant}, "subscriptions"?:
///          {<vendor_product_id>: grant}, "custom_attributes"?: {...}}}      etag: <tag>
///     grant: {"vendor_product_id", "activated_at": ISO 8601, "expires_at": ISO 8601 | null}
///     304 (unchanged)   404 (the backend does not know the profile yet)
enum RemoteProfile {
    /// What the backend said, ready to merge.
    struct Snapshot {
        var accessLevels: [(id: String, grant: Profile.Grant)] = []
        var subscriptions: [(id: String, grant: Profile.Grant)] = []
        var customAttributes = JSONObject()
    }

    /// Reads a 200 body; a malformed one is a `decoding_failed` naming the field.
    static func parse(_ body: [UInt8]) throws(WireError) -> Snapshot {
        guard case .object(let document)? = try? JSONParser.parse(body), case .object(let profile)? = document["profile"] else {
            throw WireError(.decodingFailed, "the backend's profile response is not {profile: {...}}")
        }
        var snapshot = Snapshot()
        func grants(_ key: String) throws(WireError) -> [(id: String, grant: Profile.Grant)] {
            guard let value = profile[key] else { return [] }
            guard case .object(let list) = value else { throw malformed("profile.\(key)", "expected an object") }
            var result: [(id: String, grant: Profile.Grant)] = []
            for member in list.members {
                let path = "profile.\(key).\(member.key)"
                guard case .object(let fields) = member.value,
                      case .string(let product)? = fields["vendor_product_id"], !product.isEmpty,
                      case .string(let activated)? = fields["activated_at"], let activatedAt = ISODate.parse(activated) else {
                    throw malformed(path, "expected {vendor_product_id, activated_at, expires_at}")
                }
                var expiresAt: Int?
                switch fields["expires_at"] {
                case nil, .null?: expiresAt = nil
                case .string(let text)?:
                    guard let parsed = ISODate.parse(text) else { throw malformed(path + ".expires_at", "not an ISO 8601 UTC time") }
                    expiresAt = parsed
                default: throw malformed(path + ".expires_at", "expected an ISO 8601 time or null")
                }
                result.append((member.key, Profile.Grant(vendorProductId: product, activatedAt: activatedAt, expiresAt: expiresAt)))
            }
            return result
        }
        snapshot.accessLevels = try grants("access_levels")
        snapshot.subscriptions = try grants("subscriptions")
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

    /// The device's profile with the backend's knowledge added. Grants only ever extend access
    /// (the later expiry wins), so a purchase the backend has not heard of yet is never lost;
    /// a backend attribute fills a key the device has not set, since the device's own
    /// `update_profile` calls are newer than anything it has not sent.
    static func merge(_ snapshot: Snapshot, into profile: Profile) -> Profile {
        var next = profile
        for (id, grant) in snapshot.accessLevels { Profile.merge(grant, as: id, into: &next.accessLevels) }
        for (id, grant) in snapshot.subscriptions { Profile.merge(grant, as: id, into: &next.subscriptions) }
        for member in snapshot.customAttributes.members where next.customAttributes[member.key] == nil {
            next.customAttributes.set(member.key, member.value)
        }
        return next
    }
}
