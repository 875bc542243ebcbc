/// The user the client acts for: an anonymous profile id, optionally tied to the app's own
/// customer user id, and what they paid for. Persisted so the same device keeps its A/B
/// variations and access across restarts.
struct Profile: Equatable, Sendable {
    /// Access granted by a purchase: `premium` until `expiresAt` (nil: for life).
    struct Grant: Equatable, Sendable {
        let vendorProductId: String
        let activatedAt: Int
        let expiresAt: Int?
        /// Confirmed by the backend. A grant made on the device's word (a purchase the backend
        /// has not answered yet, or no backend at all) is not.
        var verified = false
        /// The store transaction behind it, when known.
        var transactionId: String? = nil

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
    /// When it last changed (ms); not part of equality.
    var timestamp = 0
    /// The backend counts this profile's purchases as tests (sandbox).
    var isTestUser = false

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
            && lhs.isTestUser == rhs.isTestUser
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
            // Absent rather than null: a host's model has no value to show.
            if let customerUserId { writer.member("customer_user_id", customerUserId) }
            if let email { writer.member("email", email) }
            writer.member("timestamp", timestamp)
            writer.member("is_test_user", isTestUser)
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
        writer.member("verified", grant.verified)
        if let transactionId = grant.transactionId { writer.member("transaction_id", transactionId) }
    }
}
