import PaywireWire

extension RemoteProfile.Snapshot {
    /// The `profile` object of a backend answer (`Profile` in `api/openapi.yaml`), as
    /// `RemoteProfile.parse(profile:)` reads it: the backend writes with this what the device
    /// reads with that. A grant is `is_active` (when `isActive` gives one for it) and then its
    /// Grant+JSON members; `customer_user_id` is left out when nil.
    public func json(customerUserId: String?, isActive: (Profile.Grant) -> Bool?) -> JSONValue {
        func grants(_ list: [(id: String, grant: Profile.Grant)]) -> JSONValue {
            .object(JSONObject(list.map { item in
                let active = isActive(item.grant).map { [(key: "is_active", value: JSONValue.bool($0))] } ?? []
                return (item.id, .object(JSONObject(active + item.grant.members)))
            }))
        }
        var members: [(key: String, value: JSONValue)] = []
        if let customerUserId { members.append(("customer_user_id", .string(customerUserId))) }
        members += [
            ("access_levels", grants(accessLevels)),
            ("subscriptions", grants(subscriptions)),
            ("non_subscriptions", .object(JSONObject(nonSubscriptions.map { item in
                (item.id, .array(item.purchases.map { .object(JSONObject($0.members)) }))
            }))),
            ("custom_attributes", .object(customAttributes)),
            ("is_test_user", .bool(isTestUser)),
        ]
        return .object(JSONObject(members))
    }
}
