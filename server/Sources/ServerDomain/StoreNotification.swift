import PaywireModel

/// A checked notification, store-neutral, ready to apply.
package struct StoreNotification: Sendable {
    /// The store that sent it (`app_store`, `play_store`, `test`, `stripe`): ids are unique
    /// within a source.
    package let source: StoreName
    /// The notification UUID (App Store, test store) or the Pub/Sub messageId (Play).
    package let notificationId: String
    /// Nil: the notification carries no transaction (an App Store TEST, a renewal-extension
    /// summary, an external purchase token); it is recorded under no profile.
    package let originalTransactionId: String?
    package let event: LifecycleEvent
    /// The body as received, kept for `/_dev/notifications`.
    package let text: String

    package init(source: StoreName, notificationId: String, originalTransactionId: String?, event: LifecycleEvent, text: String) {
        self.source = source
        self.notificationId = notificationId
        self.originalTransactionId = originalTransactionId
        self.event = event
        self.text = text
    }
}

/// What applying a notification came to.
package enum NotificationApplied: Sendable {
    /// The grant changed (`applied`) or the notification was only recorded (`recorded`).
    /// `profileId` is nil for a notification without a transaction.
    case done(outcome: NotificationOutcome, profileId: String?, reason: String?)
    /// Seen before under this id (it was `outcome` then): nothing changed this time.
    case duplicate(outcome: NotificationOutcome, profileId: String?)
    /// No verified transaction has this original_transaction_id: nothing stored, so the
    /// store's retry lands once the device has posted the purchase.
    case unknownTransaction
}
