import PaywireModel
import PaywireWire

/// What the device says about a profile besides purchases: `PUT /v1/profiles/{id}/attributes`,
/// `PUT /v1/profiles/{id}/integration-ids`, `POST /v1/attribution`, each read by the model's
/// `ProfileDataRecord`; `{stored}` (false: the event_id was stored before), or `400` naming the
/// bad member.
extension API {
    /// `pathProfileId`: the route's profile id, where it has one (it names the profile).
    func putProfileData(_ kind: ProfileDataRecord.Kind, parsed: JSONValue?, pathProfileId: String?) async throws -> Answer {
        let record: ProfileDataRecord
        do {
            record = try ProfileDataRecord.decode(parsed: parsed, kind: kind, pathProfileId: pathProfileId)
        } catch {
            return .invalid(error)
        }
        return .json(.ok, .object([("stored", .bool(try await setup.store.storeProfileData(record)))]))
    }
}
