import PaywireModel

/// A checked notification, store-neutral, ready to apply.
struct StoreNotification: Sendable {
    /// The store that sent it (`app_store`, `play_store`, `test`, `stripe`): ids are unique
    /// within a source.
    let source: StoreName
    /// The notification UUID (App Store, test store) or the Pub/Sub messageId (Play).
    let notificationId: String
    /// Nil: the notification carries no transaction (an App Store TEST, a renewal-extension
    /// summary, an external purchase token); it is recorded under no profile.
    let originalTransactionId: String?
    let event: LifecycleEvent
    /// The body as received, kept for `/_dev/notifications`.
    let text: String
}

/// What applying a notification came to.
enum NotificationApplied: Sendable {
    /// The grant changed (`applied`) or the notification was only recorded (`recorded`).
    /// `profileId` is nil for a notification without a transaction.
    case done(outcome: NotificationOutcome, profileId: String?, reason: String?)
    /// Seen before under this id (it was `outcome` then): nothing changed this time.
    case duplicate(outcome: NotificationOutcome, profileId: String?)
    /// No verified transaction has this original_transaction_id: nothing stored, so the
    /// store's retry lands once the device has posted the purchase.
    case unknownTransaction
}
