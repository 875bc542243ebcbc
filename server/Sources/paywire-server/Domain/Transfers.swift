import PaywireWire

/// What happens to a purchase another profile holds when a profile restores it or is
/// identified as a customer who already has a profile (`--transfer-policy`): `transfer` moves
/// it (and says from which profile), `keep` leaves it with the profile holding it.
enum TransferPolicy: String, Sendable, CaseIterable {
    case transfer, keep
}

/// Why a purchase moved between profiles, as the transfers table keeps it.
enum TransferReason: String, Sendable {
    case restore, identity
    /// A web purchase's redemption link: from its holder `web_purchase:<session id>`.
    case redemption
}

/// One purchase that moved (the spec's `Transfer`).
struct TransferRecord: Sendable, Equatable {
    let transactionId: String
    let vendorProductId: String
    let fromProfileId: String
    let toProfileId: String
}

/// A kept transfer, for the profile view.
struct TransferEntry: Sendable, Equatable {
    let record: TransferRecord
    let reason: String
    let transferredAt: Int
}

/// A `POST /v1/profiles/{profile_id}/identity` body.
struct IdentityPost: Sendable {
    let eventId: String
    let profileId: String
    let customerUserId: String
}

/// What an identity came to: the customer's profile from now on, and what moved to it.
struct IdentityOutcome: Sendable, Equatable {
    let profileId: String
    let transferred: [TransferRecord]
}

enum Identity {
    /// Reads an identity body: the path names the asking profile and the body's copy must be
    /// the same; the customer user id is not empty.
    static func parse(_ body: [UInt8], pathProfileId: String) throws(RequestProblem) -> IdentityPost {
        guard let document = try? JSONValue(parsing: body), document.isObject else { throw RequestProblem("the body must be a JSON object") }
        guard let eventId = document["event_id"]?.asString, !eventId.isEmpty else { throw RequestProblem("event_id must be a non-empty string") }
        guard let profileId = document["profile_id"]?.asString, !profileId.isEmpty else {
            throw RequestProblem("profile_id must be a non-empty string")
        }
        guard profileId == pathProfileId else { throw RequestProblem("profile_id must be the path's profile id") }
        guard let customer = document["customer_user_id"]?.asString, !customer.isEmpty else {
            throw RequestProblem("customer_user_id must be a non-empty string")
        }
        return IdentityPost(eventId: eventId, profileId: profileId, customerUserId: customer)
    }

    /// The customer's profile: the one that held the customer user id first (`firstHolder`,
    /// read once the asking profile holds it too), which is the asking profile when no other
    /// held it before.
    static func customerProfile(asking: String, firstHolder: String?) -> String {
        firstHolder ?? asking
    }

    /// Whether the asking profile's purchases move to the customer's profile.
    static func moves(asking: String, customerProfile: String, policy: TransferPolicy) -> Bool {
        policy == .transfer && customerProfile != asking
    }
}
