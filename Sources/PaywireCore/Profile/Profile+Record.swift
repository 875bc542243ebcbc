extension Profile {
    /// The stored record: identity, grants and times in ms, never derived state.
    var record: [UInt8] {
        func grants(_ list: [(id: String, grant: Grant)]) -> JSONValue {
            .object(JSONObject(list.map { item in
                var fields: [(key: String, value: JSONValue)] = [
                    ("vendor_product_id", .string(item.grant.vendorProductId)),
                    ("activated_at", .number(JSONNumber(item.grant.activatedAt))),
                    ("expires_at", item.grant.expiresAt.map { .number(JSONNumber($0)) } ?? .null),
                    ("verified", .bool(item.grant.verified)),
                ]
                if let transactionId = item.grant.transactionId { fields.append(("transaction_id", .string(transactionId))) }
                return (item.id, .object(JSONObject(fields)))
            }))
        }
        return JSONWriter.encode(.object(JSONObject([
            ("profile_id", .string(profileId)),
            ("customer_user_id", customerUserId.map { .string($0) } ?? .null),
            ("email", email.map { .string($0) } ?? .null),
            ("timestamp", .number(JSONNumber(timestamp))),
            ("is_test_user", .bool(isTestUser)),
            ("access_levels", grants(accessLevels)),
            ("subscriptions", grants(subscriptions)),
            ("custom_attributes", .object(customAttributes)),
            ("cross_placement_assignments", .object(JSONObject(crossPlacementAssignments.sorted { $0.key < $1.key }
                .map { ($0.key, .string($0.value)) }))),
        ])))
    }

    /// Reads a stored record; nil when it is unreadable (it is then replaced). Records written
    /// before grants were verified read as unverified.
    static func fromRecord(_ bytes: [UInt8]) -> Profile? {
        guard case .object(let object)? = try? JSONParser.parse(bytes),
              case .string(let id)? = object["profile_id"], !id.isEmpty else { return nil }
        func text(_ key: String) -> String? {
            if case .string(let value)? = object[key], !value.isEmpty { return value }
            return nil
        }
        func grants(_ key: String) -> [(id: String, grant: Grant)] {
            guard case .object(let list)? = object[key] else { return [] }
            return list.members.compactMap { member in
                guard case .object(let fields) = member.value,
                      case .string(let product)? = fields["vendor_product_id"],
                      case .number(let activated)? = fields["activated_at"], let activatedAt = activated.intValue else { return nil }
                var grant = Grant(vendorProductId: product, activatedAt: activatedAt, expiresAt: nil)
                if case .number(let expires)? = fields["expires_at"] {
                    grant = Grant(vendorProductId: product, activatedAt: activatedAt, expiresAt: expires.intValue)
                }
                if case .bool(true)? = fields["verified"] { grant.verified = true }
                if case .string(let transaction)? = fields["transaction_id"] { grant.transactionId = transaction }
                return (member.key, grant)
            }
        }
        var profile = Profile(profileId: id, customerUserId: text("customer_user_id"), email: text("email"))
        profile.accessLevels = grants("access_levels")
        profile.subscriptions = grants("subscriptions")
        if case .number(let time)? = object["timestamp"] { profile.timestamp = time.intValue ?? 0 }
        if case .bool(true)? = object["is_test_user"] { profile.isTestUser = true }
        if case .object(let attributes)? = object["custom_attributes"] { profile.customAttributes = attributes }
        if case .object(let assignments)? = object["cross_placement_assignments"] {
            for member in assignments.members {
                if case .string(let group) = member.value { profile.crossPlacementAssignments[member.key] = group }
            }
        }
        return profile
    }
}
