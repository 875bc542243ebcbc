import PaywireModel
import PaywireWire

/// A grant and a non-subscription purchase as the model holds and writes them (Grant+JSON): the
/// one form the device and the server share.
package typealias Grant = PaywireModel.Profile.Grant
package typealias Purchase = PaywireModel.Profile.NonSubscription

/// The profile the backend knows, in the model's values: its grants ranked by the model's rule,
/// written by the model's JSON form (`RemoteProfile.Snapshot.json`), read by the model's reader
/// when authored (`RemoteProfile.parse(profile:)`). Offers are judged on it; answers carry its
/// wire form.
package struct BackendProfile: Sendable {
    package var customerUserId: String?
    package var grants = RemoteProfile.Snapshot()
    /// Original transaction ids a store notification reported on: their grants say `is_active`
    /// (the others' access is their times, which the device judges itself).
    package var reported: Set<String> = []

    package init(customerUserId: String? = nil, grants: RemoteProfile.Snapshot = RemoteProfile.Snapshot(), reported: Set<String> = []) {
        self.customerUserId = customerUserId
        self.grants = grants
        self.reported = reported
    }

    /// The profile an answer carries, written once by the model (`ProfileAnswer`): the form the
    /// device reads and what `api/openapi.yaml`'s `Profile` allows.
    package func answer(now: Int) -> ProfileAnswer {
        ProfileAnswer(grants, customerUserId: customerUserId, isActive: { grant in
            guard let original = grant.originalTransactionId, reported.contains(original) else { return nil }
            return grant.isActive(now: now)
        })
    }

    /// A profile authored in development (`--profiles`, `PUT /_dev/profiles/{id}`): what the
    /// device's reader takes (`RemoteProfile.parse(profile:)`), or why not.
    package static func authored(_ document: JSONValue) throws(AuthoredProblem) -> BackendProfile {
        guard case .object(let object) = document else { throw AuthoredProblem("a profile must be a JSON object") }
        let known: Set<String> = ["customer_user_id", "access_levels", "subscriptions", "non_subscriptions", "custom_attributes", "is_test_user"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw AuthoredProblem("'\(unknown)' is not a member of the spec's Profile")
        }
        var customerUserId: String?
        switch object["customer_user_id"] {
        case nil, .null?: break
        case .string(let id)?: customerUserId = id
        default: throw AuthoredProblem("customer_user_id must be a string or null")
        }
        do {
            return BackendProfile(customerUserId: customerUserId, grants: try RemoteProfile.parse(profile: object))
        } catch {
            throw AuthoredProblem(error.message)
        }
    }
}

/// Why an authored profile was refused.
package struct AuthoredProblem: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
