import Foundation
import PaywireAPI
import PaywireModel
import PaywireWire

/// A grant and a non-subscription purchase as the model holds and writes them (Grant+JSON): the
/// one form the device and the server share.
typealias Grant = PaywireModel.Profile.Grant
typealias Purchase = PaywireModel.Profile.NonSubscription

/// The profile the backend knows, in the model's values: its grants ranked by the model's rule,
/// written by the model's JSON form (`RemoteProfile.Snapshot.json`), read by the model's reader
/// when authored (`RemoteProfile.parse(profile:)`). Offers are judged on it; answers carry its
/// wire form.
struct BackendProfile: Sendable {
    var customerUserId: String?
    var grants = RemoteProfile.Snapshot()
    /// Original transaction ids a store notification reported on: their grants say `is_active`
    /// (the others' access is their times, which the device judges itself).
    var reported: Set<String> = []

    /// The spec's `Profile`: the model's JSON of it, read into the generated type, so the
    /// answer is both the form the device reads and what `api/openapi.yaml` allows.
    func wire(now: Int) throws -> Components.Schemas.Profile {
        let json = grants.json(customerUserId: customerUserId, isActive: { grant in
            guard let original = grant.originalTransactionId, reported.contains(original) else { return nil }
            return grant.isActive(now: now)
        })
        return try WireJSON.decoder().decode(Components.Schemas.Profile.self, from: Data(JSONWriter.encode(json)))
    }

    /// A profile authored in development (`--profiles`, `PUT /_dev/profiles/{id}`): what the
    /// spec's `Profile` allows and the device's reader takes, or why not.
    static func authored(_ document: JSONValue) throws(AuthoredProblem) -> BackendProfile {
        guard case .object(let object) = document,
              let spec = try? WireJSON.decoder().decode(Components.Schemas.Profile.self, from: Data(JSONWriter.encode(document))) else {
            throw AuthoredProblem("not a profile as the spec's Profile describes it")
        }
        do {
            return BackendProfile(customerUserId: spec.customerUserId, grants: try RemoteProfile.parse(profile: object))
        } catch {
            throw AuthoredProblem(error.message)
        }
    }
}

/// Why an authored profile was refused.
struct AuthoredProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
