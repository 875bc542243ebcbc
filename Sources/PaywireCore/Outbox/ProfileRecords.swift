import PaywireModel
import PaywireWire

/// The profile's own records: what `update_profile`, `set_integration_identifiers` and
/// `update_attribution` told the device, on its way to the backend. They ride the purchases
/// lane (one at a time, never evicted, never stopped by `analytics_disabled`): an attribution
/// the user gave and the ids that join other tools' data are not analytics to opt out of, and
/// losing one would lose it for good, since the device sends each change once.
extension Outbox {
    /// Keeps a record that `profile` changed what the backend holds of it: the attributes, the
    /// integration ids (every id, for a PUT), or what one attribution `source` said.
    func keepProfileRecord(_ kind: RecordKind, profile: Profile, source: String? = nil) throws(WireError) {
        let eventId = UUIDs.v7(milliseconds: clock.nowMilliseconds())
        var writer = JSONWriter(reservingCapacity: 256)
        writer.object { writer in
            writer.member("event_id", eventId)
            writer.member("profile_id", profile.profileId)
            if let customerUserId = profile.customerUserId { writer.member("customer_user_id", customerUserId) }
            switch kind {
            case .profileAttributes: writer.member("attributes", .object(profile.sentAttributes))
            case .integrationIds: writer.member("integration_identifiers", .object(profile.integrationIdsJSON))
            case .identity: break
            default:
                guard let source, let attribution = profile.attributions[source] else { return }
                writer.member("source", source)
                writer.member("attribution", .object(attribution.attribution))
                if let id = attribution.networkUserId { writer.member("network_user_id", id) }
            }
        }
        try keep(OutboxRecord(eventId: eventId, seq: store.nextSeq(in: .purchases), kind: kind, body: writer.bytes,
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
