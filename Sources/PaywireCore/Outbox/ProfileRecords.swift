import PaywireModel
import PaywireWire

/// The profile's own records: what `update_profile`, `set_integration_identifiers` and
/// `update_attribution` told the device, on its way to the backend. They ride the purchases
/// lane (one at a time, never evicted, never stopped by `analytics_disabled`): an attribution
/// the user gave and the ids that join other tools' data are not analytics to opt out of, and
/// losing one would lose it for good, since the device sends each change once.
extension Outbox {
    /// Keeps a record that `profile` changed what the backend holds of it: the attributes, the
    /// integration ids (every id, for a PUT), what one attribution `source` said, or who the
    /// customer is (with the app's backend's `identityToken` for it, if given). A record the
    /// backend would refuse is refused here (`wrong_param` naming the member, the backend's own
    /// rule), and nothing is kept.
    func keepProfileRecord(_ kind: RecordKind, profile: Profile, source: String? = nil, identityToken: String? = nil) throws(WireError) {
        let eventId = random.uuidV7(milliseconds: clock.nowMilliseconds())
        let body: [UInt8]
        switch kind {
        case .identity:
            guard let customerUserId = profile.customerUserId else { return }
            let request = Identity.Request(eventId: eventId, profileId: profile.profileId, customerUserId: customerUserId,
                                           identityToken: identityToken)
            try request.validate()
            body = request.encode()
        case .profileAttributes, .integrationIds:
            let record = ProfileDataRecord(eventId: eventId, profileId: profile.profileId, customerUserId: profile.customerUserId,
                                           kind: kind == .profileAttributes ? .attributes : .integrationIdentifiers,
                                           body: .object(kind == .profileAttributes ? profile.sentAttributes : profile.integrationIdsJSON))
            try record.validate()
            body = record.encode()
        default:
            guard let source, let attribution = profile.attributions[source] else { return }
            let record = ProfileDataRecord(eventId: eventId, profileId: profile.profileId, customerUserId: profile.customerUserId,
                                           source: source, attribution: attribution.attribution, networkUserId: attribution.networkUserId)
            try record.validate()
            body = record.encode()
        }
        try keep(OutboxRecord(eventId: eventId, seq: store.nextSeq(in: .purchases), kind: kind, body: body,
                              route: Outbox.route(of: kind, profileId: profile.profileId)))
    }

    /// The device moved to the customer's profile: what it said about the user (attributes,
    /// integration ids, attributions) goes to that profile's routes too, once each. A record
    /// that cannot be kept is an `error` log event; the move stands.
    func keepProfileData(of profile: Profile) {
        var kinds: [(RecordKind, String?)] = []
        if !profile.standard.isEmpty || profile.consumptionDataConsent != nil || profile.analyticsDisabled {
            kinds.append((.profileAttributes, nil))
        }
        if !profile.integrationIds.isEmpty { kinds.append((.integrationIds, nil)) }
        kinds += profile.attributions.keys.sorted().map { (RecordKind.installAttribution, $0) }
        for (kind, source) in kinds {
            do throws(WireError) {
                try keepProfileRecord(kind, profile: profile, source: source)
            } catch {
                log(.error, "could not keep the profile's data for the profile it moved to: \(error.message)",
                    details: [("profile_id", .string(profile.profileId))])
            }
        }
    }

    /// Where a purchases-lane record of `kind` made for `profileId` goes: a profile's own records
    /// to that profile's routes (it may no longer be the current one when they are sent).
    static func route(of kind: RecordKind, profileId: String) -> String {
        switch kind {
        case .profileAttributes: return "profiles/\(Backend.pathSegment(profileId))/attributes"
        case .integrationIds: return "profiles/\(Backend.pathSegment(profileId))/integration-ids"
        case .installAttribution: return "attribution"
        case .identity: return "profiles/\(Backend.pathSegment(profileId))/identity"
        default: return "purchases"
        }
    }

    /// The method and route a purchases-lane record is sent with: the route it was kept with. A
    /// record an older version kept without one has its route worked out from its body, once.
    static func route(of record: OutboxRecord) -> (method: String, route: String) {
        let method = record.kind == .profileAttributes || record.kind == .integrationIds ? "PUT" : "POST"
        if let route = record.route { return (method, route) }
        var profileId = ""
        if case .object(let body)? = try? JSONParser.parse(record.body), case .string(let id)? = body["profile_id"] { profileId = id }
        return (method, route(of: record.kind, profileId: profileId))
    }
}
