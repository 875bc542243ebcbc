import PaywireModel
import ServerDomain

/// Everything the server keeps, behind one protocol with two engines: SQLite (embedded, one
/// file, the default) and PostgreSQL (shared by replicas). Each method is one transaction: a
/// request that was acknowledged is stored, and one that failed left nothing behind. Every
/// idempotency key (event ids, transaction ids, notification ids, offer nonces, profile-data
/// event ids) is a unique key in the database, never something a process remembers, so any
/// replica can answer any retry. What a write decides from what it read is decided by the pure
/// rules of `StorageRules`, the same for both engines.
package protocol Storage: Sendable {
    /// Applies the migrations the database lacks (before the server takes requests).
    func migrate() async throws

    /// Stores a checked batch; returns how many records were new and how many were already
    /// stored (an earlier post of the same event_id, or a repeat inside this batch). The
    /// batch's `dropped_count` counts only when it stored something new.
    func storeEvents(_ records: [EventRecord], dropped: Int) async throws -> (accepted: Int, duplicates: Int)
    /// Stored records' texts in arrival order, optionally of one profile and/or name.
    func events(profileId: String?, name: String?) async throws -> [String]
    func eventSummary() async throws -> EventSummary

    /// A checked purchase, or its refusal, recorded: the status (`verified`, `pending`) or the
    /// refusal, including a `transaction_conflict` found here.
    func recordPurchase(_ post: PurchasePost, product: StoreProduct?, refusal: Refusal?, request: String, now: Int) async throws -> Result<PurchaseStatus, Refusal>
    /// Restores checked claims to the restoring profile; `refusals` are those already refused.
    /// A transaction another profile holds moves (kept as a transfer) or is refused, as
    /// `policy` says; one this request moved before answers where it came from again.
    func recordRestore(_ post: RestorePost, products: [String: StoreProduct], refusals: [String: Refusal],
                       policy: TransferPolicy, now: Int) async throws -> RestoreOutcome
    /// Identifies a profile as a customer: it holds the customer user id from now on; the
    /// customer's profile is the one that held it first (else this one), and under `transfer`
    /// this profile's transactions move there (each kept as a transfer). The same event_id
    /// again answers what it moved.
    func identify(_ post: Identity.Request, policy: TransferPolicy, now: Int) async throws -> IdentityOutcome
    /// What the dashboard's profile view shows of a profile.
    func profileView(_ profileId: String) async throws -> ProfileView
    /// Every purchase post and restored claim with its outcome, in arrival order.
    func purchaseLog(profileId: String?) async throws -> [PurchaseLogEntry]

    func profileFacts(_ profileId: String) async throws -> ProfileFacts

    /// Applies a checked notification: replay check, owner, current state, the rule, the new
    /// state and the record together.
    func apply(_ notification: StoreNotification) async throws -> NotificationApplied
    func notificationLog() async throws -> [NotificationLogEntry]
    /// Keeps the answer built for an App Store CONSUMPTION_REQUEST, once per notification id.
    func recordConsumptionRequest(_ entry: ConsumptionRequestEntry) async throws
    /// The consumption requests kept, oldest first, optionally of one profile.
    func consumptionRequests(profileId: String?) async throws -> [ConsumptionRequestEntry]

    /// Keeps `post` as the latest of its kind (and source); false when its event_id was stored before.
    func storeProfileData(_ post: ProfileDataRecord) async throws -> Bool
    func profileData(profileId: String) async throws -> [ProfileDataEntry]

    /// What the results of a placement count; `holdouts` names the bundle's holdout cells,
    /// whose purchases are read wherever they were made.
    func resultFacts(placementId: String, holdouts: [ExperimentCell]) async throws -> ResultFacts

    /// Records an offer signature's nonce; one used before fails.
    func recordOfferNonce(_ nonce: String, profileId: String, productId: String, offerId: String, at time: Int) async throws

    /// A notification already received under this source and id: its outcome and profile.
    func notificationSeen(source: StoreName, notificationId: String) async throws -> (outcome: NotificationOutcome, profileId: String?)?
    /// The links kept of these Stripe ids.
    func stripeLinks(_ stripeIds: [String]) async throws -> [String: StripeLink]
    /// Keeps a checkout once (a replay changes nothing) with its purchase's Stripe ids (each
    /// linked once) and its customer (linked to the latest checkout's profile).
    func keepStripe(checkout: WebCheckout?, links: [StripeLink], customer: StripeLink?) async throws
    /// A completed checkout as its buyer's success page sees it; nil until its webhook landed.
    func webCheckout(_ checkoutSessionId: String) async throws -> WebCheckoutState?
    /// A new redemption token (its digest) for a held checkout, replacing the earlier one.
    func issueRedemption(checkoutSessionId: String, digest: String, expiresAt: Int) async throws -> Redemption.Issue
    /// Redeems the checkout holding this token's digest for `profileId`: its purchases move.
    func redeem(digest: String, profileId: String, now: Int) async throws -> Redemption.Result

    /// Operators' dashboard sessions, by the digest of the cookie's token: one kept (the
    /// sessions ended before `now` are dropped with it), one read (nil once ended or expired),
    /// one ended.
    func startSession(digest: String, _ session: OperatorSession, now: Int) async throws
    func session(digest: String, now: Int) async throws -> OperatorSession?
    func endSession(digest: String) async throws

    /// An operator's act kept (`AuditRecord`), and the latest ones, newest first.
    func keepAudit(_ record: AuditRecord) async throws
    func auditRecords(limit: Int) async throws -> [AuditRecord]

    /// Profiles' credentials as kept (`ProfileCredentials`: digests, and whether each was used),
    /// in one read: a batch names many profiles. A profile with none is absent from the answer.
    func profileCredentials(of profileIds: [String]) async throws -> [String: [ProfileCredentials.Kept]]
    /// Marks a pending credential used (a request carried it); one used already stays as it was.
    func credentialUsed(digest: String, now: Int) async throws
    /// Keeps a new credential of a profile; `replacingPending` drops its pending ones first (a
    /// profile no device holds yet keeps its newest only).
    func issueCredential(profileId: String, digest: String, replacingPending: Bool, now: Int) async throws

    /// Forgets everything stored (`POST /_dev/reset`).
    func reset() async throws
    /// Answers when the database does (`/readyz`).
    func ping() async throws
}

extension Storage {
    /// One profile's credentials: the batch read of one (a web visitor's cookie names one).
    package func profileCredentials(_ profileId: String) async throws -> [ProfileCredentials.Kept] {
        try await profileCredentials(of: [profileId])[profileId] ?? []
    }
}

/// `/_dev/events/summary`: stored records, duplicates sent, batches, evictions reported.
package struct EventSummary: Sendable {
    package let stored: Int
    package let duplicates: Int
    package let batches: Int
    package let droppedReported: Int
}

/// What a restore came to.
package struct RestoreOutcome: Sendable {
    /// Each restored claim, with the profile it moved from when another held it.
    package let restored: [(claim: StoreClaim, from: String?)]
    /// A nil refusal: another profile holds it and keeps it (`belongs_to_another_profile`).
    package let refused: [(claim: StoreClaim, refusal: Refusal?)]
}

/// One line of `/_dev/purchases`: the request or claim as sent, and its outcome.
package struct PurchaseLogEntry: Sendable {
    package let request: String
    package let status: String
    package let code: String
}

/// One line of `/_dev/notifications`.
package struct NotificationLogEntry: Sendable {
    package let source: String
    package let notificationId: String
    package let type: String
    package let subtype: String?
    package let originalTransactionId: String
    package let profileId: String
    package let outcome: String
}

/// An App Store CONSUMPTION_REQUEST and the answer built for it (Apple's JSON).
package struct ConsumptionRequestEntry: Sendable {
    package let notificationId: String
    package let originalTransactionId: String
    package let transactionId: String?
    package let profileId: String
    package let receivedAt: Int
    /// The user consented when it came: the answer may go to Apple.
    package let sendable: Bool
    package let consumption: String

    package init(notificationId: String, originalTransactionId: String, transactionId: String?, profileId: String,
                 receivedAt: Int, sendable: Bool, consumption: String) {
        self.notificationId = notificationId
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.profileId = profileId
        self.receivedAt = receivedAt
        self.sendable = sendable
        self.consumption = consumption
    }
}

/// The latest profile data of one kind (and source, for attribution), as stored.
package struct ProfileDataEntry: Sendable {
    package let kind: String
    package let source: String
    package let body: String
}
