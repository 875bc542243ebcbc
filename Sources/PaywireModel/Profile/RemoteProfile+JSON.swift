import PaywireWire

extension RemoteProfile.Snapshot {
    /// The `profile` object of a backend answer (`Profile` in `api/openapi.yaml`), as
    /// `RemoteProfile.parse(profile:)` reads it: the backend writes with this what the device
    /// reads with that. A grant is `is_active` (when `isActive` gives one for it) and then its
    /// Grant+JSON members; `customer_user_id` is left out when nil, and so is every member whose
    /// value is unknown (null): the reader takes a member left out as null, and the answer stays
    /// the size of what it says. `verified` is the device's own mark (everything the backend
    /// answers is verified, and its reader says so), never the answer's.
    public func json(customerUserId: String?, isActive: (Profile.Grant) -> Bool?) -> JSONValue {
        func grants(_ list: [(id: String, grant: Profile.Grant)]) -> JSONValue {
            .object(JSONObject(list.map { item in
                let active = isActive(item.grant).map { [(key: "is_active", value: JSONValue.bool($0))] } ?? []
                return (item.id, .object(JSONObject(active + item.grant.members.filter(Self.answered))))
            }))
        }
        var members: [(key: String, value: JSONValue)] = []
        if let customerUserId { members.append(("customer_user_id", .string(customerUserId))) }
        members += [
            ("access_levels", grants(accessLevels)),
            ("subscriptions", grants(subscriptions)),
            ("non_subscriptions", .object(JSONObject(nonSubscriptions.map { item in
                (item.id, .array(item.purchases.map { .object(JSONObject($0.members.filter(Self.answered))) }))
            }))),
            ("custom_attributes", .object(customAttributes)),
            ("is_test_user", .bool(isTestUser)),
        ]
        return .object(JSONObject(members))
    }

    /// Whether a Grant+JSON member goes into the answer.
    private static func answered(_ member: (key: String, value: JSONValue)) -> Bool {
        member.value != .null && member.key != "verified"
    }
}
