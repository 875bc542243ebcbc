/// The user the client acts for: an anonymous profile id, optionally tied to the app's own
/// customer user id, and what they paid for. Persisted so the same device keeps its A/B
/// variations and access across restarts.
struct Profile: Equatable, Sendable {
    /// Access granted by a purchase: `premium` until `expiresAt` (nil: for life).
    struct Grant: Equatable, Sendable {
        let vendorProductId: String
        let activatedAt: Int
        let expiresAt: Int?

        func isActive(now: Int) -> Bool { expiresAt.map { $0 > now } ?? true }
    }

    var profileId: String
    var customerUserId: String?
    /// Recorded from an onboarding's email input when the onboarding asks for it.
    var email: String?
    /// Access level id -> the grant behind it, in the order granted.
    var accessLevels: [(id: String, grant: Grant)] = []
    /// Subscriptions by vendor product id, in the order bought.
    var subscriptions: [(id: String, grant: Grant)] = []
    /// Set by `update_profile`; audience rules read them as `custom.<key>`.
    var customAttributes = JSONObject()
    /// Cross-placement test id -> the variation group this profile was assigned.
    var crossPlacementAssignments: [String: String] = [:]

    static let storageKey = "profile"

    init(profileId: String, customerUserId: String?, email: String? = nil) {
        self.profileId = profileId
        self.customerUserId = customerUserId
        self.email = email
    }

    static func == (lhs: Profile, rhs: Profile) -> Bool {
        lhs.profileId == rhs.profileId && lhs.customerUserId == rhs.customerUserId && lhs.email == rhs.email
            && lhs.accessLevels.elementsEqual(rhs.accessLevels) { $0.id == $1.id && $0.grant == $1.grant }
            && lhs.subscriptions.elementsEqual(rhs.subscriptions) { $0.id == $1.id && $0.grant == $1.grant }
            && lhs.customAttributes == rhs.customAttributes && lhs.crossPlacementAssignments == rhs.crossPlacementAssignments
    }

    /// Records a purchase or a restored product: the access level and, for a subscription, the
    /// subscription. A later expiry replaces an earlier one; an earlier one never shortens access.
    mutating func grant(accessLevel: String, _ grant: Grant, isSubscription: Bool) {
        Profile.merge(grant, as: accessLevel, into: &accessLevels)
        if isSubscription { Profile.merge(grant, as: grant.vendorProductId, into: &subscriptions) }
    }

    /// Adds `grant` under `id`, or lengthens the one there; never shortens it.
    static func merge(_ grant: Grant, as id: String, into list: inout [(id: String, grant: Grant)]) {
        guard let index = list.firstIndex(where: { $0.id == id }) else {
            list.append((id, grant))
            return
        }
        // nil expiry is forever, so it outlasts any date.
        let current = list[index].grant.expiresAt ?? .max
        if (grant.expiresAt ?? .max) > current { list[index].grant = grant }
    }

    /// A new anonymous profile id: a random version-4 UUID.
    static func newProfileId() -> String { UUIDs.v4() }

    /// The wire form (`#/$defs/profile`); `is_active` is judged at `now`.
    func write(to writer: inout JSONWriter, now: Int) {
        writer.object { writer in
            writer.member("profile_id", profileId)
            writer.member("customer_user_id", customerUserId)
            writer.member("email", email)
            writer.key("access_levels")
            writer.object { writer in
                for (id, grant) in accessLevels {
                    writer.key(id)
                    writer.object { writer in
                        writer.member("id", id)
                        Profile.writeGrant(grant, now: now, to: &writer)
                    }
                }
            }
            writer.key("subscriptions")
            writer.object { writer in
                for (id, grant) in subscriptions {
                    writer.key(id)
                    writer.object { writer in Profile.writeGrant(grant, now: now, to: &writer) }
                }
            }
            writer.member("custom_attributes", .object(customAttributes))
        }
    }

    /// Whether an access level is active at `now`.
    func activeAccessLevels(now: Int) -> Set<String> {
        Set(accessLevels.filter { $0.grant.isActive(now: now) }.map(\.id))
    }

    private static func writeGrant(_ grant: Grant, now: Int, to writer: inout JSONWriter) {
        writer.member("is_active", grant.isActive(now: now))
        writer.member("vendor_product_id", grant.vendorProductId)
        writer.member("activated_at", ISODate.format(milliseconds: grant.activatedAt))
        writer.member("expires_at", grant.expiresAt.map { ISODate.format(milliseconds: $0) })
    }

    /// The stored record: identity and grants (times in ms), never derived state.
    var record: [UInt8] {
        func grants(_ list: [(id: String, grant: Grant)]) -> JSONValue {
            .object(JSONObject(list.map { item in
                (item.id, .object(JSONObject([
                    ("vendor_product_id", .string(item.grant.vendorProductId)),
                    ("activated_at", .number(JSONNumber(item.grant.activatedAt))),
                    ("expires_at", item.grant.expiresAt.map { .number(JSONNumber($0)) } ?? .null),
                ])))
            }))
        }
        return JSONWriter.encode(.object(JSONObject([
            ("profile_id", .string(profileId)),
            ("customer_user_id", customerUserId.map { .string($0) } ?? .null),
            ("email", email.map { .string($0) } ?? .null),
            ("access_levels", grants(accessLevels)),
            ("subscriptions", grants(subscriptions)),
            ("custom_attributes", .object(customAttributes)),
            ("cross_placement_assignments", .object(JSONObject(crossPlacementAssignments.sorted { $0.key < $1.key }
                .map { ($0.key, .string($0.value)) }))),
        ])))
    }

    /// Reads a stored record; nil when it is unreadable (it is then replaced).
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
                var expiresAt: Int?
                if case .number(let expires)? = fields["expires_at"] { expiresAt = expires.intValue }
                return (member.key, Grant(vendorProductId: product, activatedAt: activatedAt, expiresAt: expiresAt))
            }
        }
        var profile = Profile(profileId: id, customerUserId: text("customer_user_id"), email: text("email"))
        profile.accessLevels = grants("access_levels")
        profile.subscriptions = grants("subscriptions")
        if case .object(let attributes)? = object["custom_attributes"] { profile.customAttributes = attributes }
        if case .object(let assignments)? = object["cross_placement_assignments"] {
            for member in assignments.members {
                if case .string(let group) = member.value { profile.crossPlacementAssignments[member.key] = group }
            }
        }
        return profile
    }
}
