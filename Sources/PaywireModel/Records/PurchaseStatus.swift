import PaywireWire

/// What the device says of a transaction it reports (`state` of `POST /v1/purchases`): the
/// store completed it, or it waits for payment (Ask to Buy, a slow card).
public enum PurchaseState: String, WireEnum, Sendable {
    case purchased, pending
}

/// What the backend made of a transaction it kept (`transaction.status` of a purchase answer,
/// the `status` column): verified and granted, or kept pending until the store completes it.
public enum PurchaseStatus: String, WireEnum, Sendable {
    case verified, pending

    /// The status a kept transaction has after a claim in `state`.
    public init(_ state: PurchaseState) {
        self = state == .pending ? .pending : .verified
    }
}

/// What a store's notification did (`outcome` of a notification answer, the notifications
/// table): changed a grant, was kept without changing one, or was received before.
public enum NotificationOutcome: String, WireEnum, Sendable {
    case applied, recorded, duplicate
}
