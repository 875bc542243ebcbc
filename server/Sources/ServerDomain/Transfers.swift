import PaywireModel

/// What happens to a purchase another profile holds when a profile restores it or is
/// identified as a customer who already has a profile (`--transfer-policy`): `transfer` moves
/// it (and says from which profile), `keep` leaves it with the profile holding it.
package enum TransferPolicy: String, Sendable, CaseIterable {
    case transfer, keep
}

/// Why a purchase moved between profiles, as the transfers table keeps it.
package enum TransferReason: String, Sendable {
    case restore, identity
    /// A web purchase's redemption link: from its holder `web_purchase:<session id>`.
    case redemption
}

/// A kept transfer, for the profile view.
package struct TransferEntry: Sendable, Equatable {
    package let record: Transfer
    package let reason: TransferReason
    package let transferredAt: Int

    package init(record: Transfer, reason: TransferReason, transferredAt: Int) {
        self.record = record
        self.reason = reason
        self.transferredAt = transferredAt
    }
}

/// What an identity came to: the customer's profile from now on, and what moved to it.
package struct IdentityOutcome: Sendable, Equatable {
    package let profileId: String
    package let transferred: [Transfer]

    package init(profileId: String, transferred: [Transfer]) {
        self.profileId = profileId
        self.transferred = transferred
    }
}

/// Whose profile a customer's is, and what moves to it: the server's rules of identity.
package enum IdentityRules {
    /// The customer's profile: the one that held the customer user id first (`firstHolder`,
    /// read once the asking profile holds it too), which is the asking profile when no other
    /// held it before.
    package static func customerProfile(asking: String, firstHolder: String?) -> String {
        firstHolder ?? asking
    }

    /// Whether the asking profile's purchases move to the customer's profile.
    package static func moves(asking: String, customerProfile: String, policy: TransferPolicy) -> Bool {
        policy == .transfer && customerProfile != asking
    }
}
