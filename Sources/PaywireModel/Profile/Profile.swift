import PaywireWire

/// The user the client acts for: an anonymous profile id, optionally tied to the app's own
/// customer user id, and what they paid for. Persisted so the same device keeps its A/B
/// variations and access across restarts. Public as the namespace of `Grant` and
/// `NonSubscription` and of the rules that keep lists of them, which the backend shares; its
/// own members are the device's.
public struct Profile: Equatable, Sendable {
    package var profileId: String
    package var customerUserId: String?
    /// The standard attributes `update_profile` sets (`StandardAttributeRules.keys` -> value).
    package var standard: [String: String] = [:]
    /// Set by `update_profile`, or recorded from an onboarding's email input when it asks for it.
    package var email: String? {
        get { standard["email"] }
        set { standard["email"] = newValue }
    }
    /// The user opted out of analytics: no plain analytics record is kept (`Outbox.record`).
    package var analyticsDisabled = false
    /// `update_profile`'s `consumption_data_consent`: the user's consent to share consumption
    /// data with the App Store when Apple asks about a refund request; nil until set.
    package var consumptionDataConsent: Bool?
    /// `set_integration_identifiers`: key -> id.
    package var integrationIds: [String: String] = [:]
    /// `update_attribution`: source -> what it said.
    package var attributions: [String: SourceAttribution] = [:]
    /// Access level id -> the grant behind it, in the order granted.
    package var accessLevels: [(id: String, grant: Grant)] = []
    /// Subscriptions (autorenewable and non-renewing) by vendor product id, in the order bought.
    package var subscriptions: [(id: String, grant: Grant)] = []
    /// Consumable and non-consumable purchases by vendor product id, oldest first.
    package var nonSubscriptions: [(id: String, purchases: [NonSubscription])] = []
    /// Set by `update_profile`; audience rules read them as `custom.<key>`.
    package var customAttributes = JSONObject()
    /// Cross-placement test id -> the variation group this profile was assigned.
    package var crossPlacementAssignments: [String: String] = [:]
    /// When it last changed (ms); not part of equality.
    package var timestamp: WideInt = 0
    /// The backend counts this profile's purchases as tests (sandbox).
    package var isTestUser = false
    /// The backend's time at its last answer (ms; 0: never): access is never judged earlier.
    /// Not part of equality.
    package var lastBackendTime: WideInt = 0
    /// The access time of the backend's last answer about this profile (ms; 0: never): its
    /// grants give access for `offlineAccessMaxAge` after it. Kept; not part of equality.
    package var backendAnsweredAt: WideInt = 0
    /// How long the backend's grants give access without its answer (the config's
    /// `offline_access_max_age_ms`); nil: no bound. Not kept (the config says it each run), not
    /// part of equality.
    package var offlineAccessMaxAge: WideInt?
    /// How the backend's last answer about the profile was judged (`response_verification`).
    package var verification = Verification.not_requested
    /// The last verified answer that carried this profile's access, and a later verified 304
    /// that said it was unchanged: kept with the profile and checked again when it is read back
    /// (`StoredProfileCheck`). Not part of equality.
    package var signedAnswer: SignedAnswer?
    package var signedConfirmation: SignedAnswer?

    package static let storageKey = "profile"

    package init(profileId: String, customerUserId: String?, email: String? = nil) {
        self.profileId = profileId
        self.customerUserId = customerUserId
        if let email { standard["email"] = email }
    }

    public static func == (lhs: Profile, rhs: Profile) -> Bool {
        lhs.profileId == rhs.profileId && lhs.customerUserId == rhs.customerUserId && lhs.standard == rhs.standard
            && lhs.analyticsDisabled == rhs.analyticsDisabled && lhs.consumptionDataConsent == rhs.consumptionDataConsent
            && lhs.integrationIds == rhs.integrationIds
            && lhs.attributions == rhs.attributions
            && lhs.accessLevels.elementsEqual(rhs.accessLevels) { $0.id == $1.id && $0.grant == $1.grant }
            && lhs.subscriptions.elementsEqual(rhs.subscriptions) { $0.id == $1.id && $0.grant == $1.grant }
            && lhs.nonSubscriptions.elementsEqual(rhs.nonSubscriptions) { $0.id == $1.id && $0.purchases == $1.purchases }
            && lhs.customAttributes == rhs.customAttributes && lhs.crossPlacementAssignments == rhs.crossPlacementAssignments
            && lhs.isTestUser == rhs.isTestUser && lhs.verification == rhs.verification
    }

    /// Adds `grant` under `id`, or replaces the one there when it outranks it (`GrantStanding`):
    /// how the device and the backend keep one grant per access level or subscription.
    public static func merge(_ grant: Grant, as id: String, into list: inout [(id: String, grant: Grant)]) {
        guard let index = list.firstIndex(where: { $0.id == id }) else {
            list.append((id, grant))
            return
        }
        if grant.outranks(list[index].grant) { list[index].grant = grant }
    }

    /// Records a consumable or non-consumable purchase once (by its purchase id).
    package mutating func record(_ purchase: NonSubscription) { Profile.record(purchase, into: &nonSubscriptions) }

    /// Adds `purchase` to its product's list in `list` unless that list has its purchase id:
    /// how the device and the backend list non-subscriptions, each purchase once.
    public static func record(_ purchase: NonSubscription, into list: inout [(id: String, purchases: [NonSubscription])]) {
        guard let index = list.firstIndex(where: { $0.id == purchase.vendorProductId }) else {
            list.append((purchase.vendorProductId, [purchase]))
            return
        }
        guard !list[index].purchases.contains(where: { $0.purchaseId == purchase.purchaseId }) else { return }
        list[index].purchases.append(purchase)
    }

    /// The first time after `now` at which any access level may start or stop being active:
    /// a grant's own time, or the end of the backend's grants' trust (`OfflineAccessRules`).
    package func nextAccessChange(after now: WideInt) -> WideInt? {
        let grants = accessLevels + subscriptions
        var times = grants.compactMap { $0.grant.nextChange(after: now) }
        if let until = backendTrustedUntil, until > now, grants.contains(where: { $0.grant.source == .backend }) { times.append(until) }
        return times.min()
    }

    /// Until when the backend's grants give access without its answer; nil: no bound.
    package var backendTrustedUntil: WideInt? { offlineAccessMaxAge.map { backendAnsweredAt.clampedAdding($0) } }

    /// Whether `grant` gives access at `now`: active by its own times, and, for the backend's,
    /// trusted still (`OfflineAccessRules.trusts`). What `is_active` says.
    package func givesAccess(_ grant: Grant, now: WideInt) -> Bool {
        grant.isActive(now: now) && OfflineAccessRules.trusts(grant, until: backendTrustedUntil, now: now)
    }

    /// The wire form (`#/$defs/profile`); `is_active` is judged at `now`.
    package func write(to writer: inout JSONWriter, now: WideInt) {
        writer.object { writer in
            writer.member("profile_id", profileId)
            // Absent rather than null: a host's model has no value to show.
            if let customerUserId { writer.member("customer_user_id", customerUserId) }
            for key in StandardAttributeRules.keys { if let value = standard[key] { writer.member(key, value) } }
            if analyticsDisabled { writer.member("analytics_disabled", true) }
            if let consumptionDataConsent { writer.member("consumption_data_consent", consumptionDataConsent) }
            if !integrationIds.isEmpty { writer.member("integration_identifiers", .object(integrationIdsJSON)) }
            if !attributions.isEmpty { writer.member("attributions", .object(attributionsJSON)) }
            writer.member("timestamp", timestamp)
            writer.member("is_test_user", isTestUser)
            writer.member("verification", verification.rawValue)
            writer.key("access_levels")
            writer.object { writer in
                for (id, grant) in accessLevels {
                    writer.key(id)
                    writeGrant(grant, id: id, now: now, to: &writer)
                }
            }
            writer.key("subscriptions")
            writer.object { writer in
                for (id, grant) in subscriptions {
                    writer.key(id)
                    writeGrant(grant, id: nil, now: now, to: &writer)
                }
            }
            writer.key("non_subscriptions")
            writer.object { writer in
                for (id, purchases) in nonSubscriptions {
                    writer.key(id)
                    writer.array { writer in
                        for purchase in purchases { writer.value(.object(JSONObject(purchase.members))) }
                    }
                }
            }
            writer.member("custom_attributes", .object(customAttributes))
        }
    }

    /// Whether an access level is active at `now`.
    package func activeAccessLevels(now: WideInt) -> Set<String> {
        Set(accessLevels.filter { givesAccess($0.grant, now: now) }.map { $0.id })
    }

    private func writeGrant(_ grant: Grant, id: String?, now: WideInt, to writer: inout JSONWriter) {
        writer.object { writer in
            if let id { writer.member("id", id) }
            writer.member("is_active", givesAccess(grant, now: now))
            for member in grant.deviceMembers { writer.member(member.key, member.value) }
        }
    }
}
