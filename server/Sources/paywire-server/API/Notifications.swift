import Logging
import PaywireModel
import PaywireWire
import ServerDomain

/// `POST /v1/notifications/{test-store,app-store,play}`: a store's server notification, checked,
/// applied to the profile owning its original transaction, answered with that profile. A
/// refusal (400, 404) stores nothing; a replayed id answers 200 `duplicate` and changes nothing.
extension API {
    func postTestStoreNotification(body: [UInt8]) async throws -> Answer {
        guard setup.testStoreKey != nil else {
            ServerMetrics.notification(source: .test, outcome: "refused")
            return .error(.badRequest, "test_store_off", "the test store is off on this server (--dev or --test-signing-key turns it on)")
        }
        let notification: StoreNotification
        do {
            notification = try NotificationRequests.testStore(body, now: clock.nowMilliseconds())
        } catch {
            ServerMetrics.notification(source: .test, outcome: "refused")
            return .invalid(error.message)
        }
        return try await apply(notification)
    }

    func postAppStoreNotification(body: [UInt8]) async throws -> Answer {
        let notification: StoreNotification
        do {
            notification = try await AppStoreNotification.parse(body, verifier: setup.appStore)
        } catch {
            ServerMetrics.notification(source: .appStore, outcome: "refused")
            return .error(error.isUnproven ? .unauthorized : .badRequest, error.code, error.message)
        }
        if notification.event.storeType == "TEST" {
            // App Store Connect's "send a test notification": what an operator looks for.
            logger.notice("App Store TEST notification received", metadata: ["notification_id": .string(notification.notificationId)])
        }
        return try await apply(notification)
    }

    func postPlayNotification(body: [UInt8]) async throws -> Answer {
        var notification: StoreNotification, lookup: PlayLookup?
        do {
            (notification, lookup) = try PlayNotification.parse(body, products: setup.products)
        } catch {
            ServerMetrics.notification(source: .playStore, outcome: "refused")
            return .invalid(error.message)
        }
        if notification.event.storeType == PlayNotification.testType {
            // Play Console's "send test notification": what an operator looks for.
            logger.notice("Google Play test notification received", metadata: ["message_id": .string(notification.notificationId)])
        }
        if setup.playAPI == nil, setup.dev == nil, lookup != nil {
            // What a real RTDN says of a purchase is only that it changed: without the Play
            // Developer API no state is read from it (an added expiry is the dev server's
            // convenience). Pub/Sub retries a 5xx, so the push lands once the key is given.
            ServerMetrics.notification(source: .playStore, outcome: "play_api_not_configured")
            logger.error("a Play notification names a purchase, and this server has no --play-service-account; the push is answered 503",
                         metadata: ["message_id": .string(notification.notificationId)])
            return .error(.serviceUnavailable, "play_api_not_configured",
                          "this server has no --play-service-account: a Play notification tells only that a purchase changed, and its state is asked of the Play Developer API; nothing changed")
        }
        if let api = setup.playAPI, let lookup {
            do {
                let link: PlayLink?
                (notification, link) = try await Self.asking(api, lookup, notification)
                if let link { try await follow(link, to: notification) }
            } catch let error as PlayAPIProblem {
                // Never a silent success: Pub/Sub retries a 5xx, and the push then lands.
                ServerMetrics.notification(source: .playStore, outcome: "play_api_unavailable")
                logger.warning("the Play Developer API gave no purchase state; the push is answered 503",
                               metadata: ["message_id": .string(notification.notificationId), "reason": .string(error.message)])
                return .error(.serviceUnavailable, "play_api_unavailable", error.message)
            }
        }
        return try await apply(notification)
    }

    /// The RTDN with the purchase's state as the Play Developer API gives it, and the purchase
    /// it replaces, if any.
    private static func asking(_ api: PlayDeveloperAPI, _ lookup: PlayLookup, _ notification: StoreNotification)
        async throws(PlayAPIProblem) -> (StoreNotification, PlayLink?) {
        let event: LifecycleEvent, link: PlayLink?
        switch lookup {
        case .subscription(let packageName, let token):
            let purchase = try await api.subscription(packageName: packageName, token: token)
            event = try PlayPurchaseState.subscription(notification.event, purchase)
            link = PlayLink.of(purchase, token: token, at: notification.event.at)
        case .product(let packageName, let productId, let token):
            event = try PlayPurchaseState.product(notification.event,
                                                  try await api.product(packageName: packageName, productId: productId, token: token))
            link = nil
        }
        return (StoreNotification(source: notification.source, notificationId: notification.notificationId,
                                  originalTransactionId: notification.originalTransactionId, event: event, text: notification.text), link)
    }

    /// A purchase that replaces another: the replaced one's grant ends when the new one starts
    /// (`cancellation_reason: upgraded`, for any plan change), and the new purchase is recorded
    /// for the replaced one's owner, so the grant moves to it and is never given twice. Each
    /// step is idempotent (the ending by a notification id of its own, the purchase by its
    /// token), so a push retried after a failure between them redoes neither. A replaced
    /// purchase this server never saw ends nothing; the new one then waits for the device.
    private func follow(_ link: PlayLink, to notification: StoreNotification) async throws {
        guard let token = notification.originalTransactionId, let productId = notification.event.vendorProductId else { return }
        var end = LifecycleEvent(kind: .expired, storeType: "SUBSCRIPTION_REPLACED", subtype: nil, at: link.startedAt)
        end.cancellationReason = .upgraded
        let replaced = StoreNotification(source: notification.source, notificationId: "\(notification.notificationId)/replaces/\(link.replacedToken)",
                                         originalTransactionId: link.replacedToken, event: end, text: notification.text)
        let owner: String?
        switch try await setup.store.apply(replaced) {
        case .done(_, let profileId, _), .duplicate(_, let profileId): owner = profileId
        case .unknownTransaction: owner = nil
        }
        guard let owner, let product = setup.products[productId] else { return }
        let recorded = try await recordStorePurchase(owner: owner, transactionId: token, productId: productId, product: product,
                                                     store: notification.source, verification: "play_developer_api", purchasedAt: link.startedAt,
                                                     environment: link.environment, text: notification.text)
        if case .failure(let refusal) = recorded {
            logger.warning("a replacing Play purchase was not recorded for the replaced one's owner",
                                                   metadata: ["message_id": .string(notification.notificationId), "reason": .string(refusal.message)])
        }
    }

    /// Applies a checked notification; an unknown original transaction is a 404 rather than a
    /// recorded "unmatched": the store retries a non-2xx answer, and a notification that raced
    /// ahead of the device's purchase post then lands.
    private func apply(_ notification: StoreNotification) async throws -> Answer {
        let outcome = try await setup.store.apply(notification)
        switch outcome {
        case .done(_, let profileId?, _), .duplicate(_, let profileId?): try await keepConsumptionRequest(notification, profileId: profileId)
        default: break
        }
        switch outcome {
        case .unknownTransaction:
            ServerMetrics.notification(source: notification.source, outcome: "unknown_transaction")
            return .error(.notFound, "unknown_transaction",
                          "no verified transaction has original_transaction_id '\(notification.originalTransactionId ?? "")'; nothing was stored")
        case .duplicate(let earlier, let profileId):
            ServerMetrics.notification(source: notification.source, outcome: NotificationOutcome.duplicate.rawValue)
            return .json(.ok, try await result(notification, .duplicate, profileId: profileId,
                                               message: "notification already received (it was \(earlier.rawValue)); nothing changed"))
        case .done(let done, let profileId, let reason):
            ServerMetrics.notification(source: notification.source, outcome: done.rawValue)
            return .json(.ok, try await result(notification, done, profileId: profileId,
                                               message: reason ?? "\(notification.event.storeType) applied to the grant"))
        }
    }

    /// `NotificationResult`, with the owner's profile as it now stands.
    private func result(_ notification: StoreNotification, _ outcome: NotificationOutcome, profileId: String?,
                        message: String) async throws -> [UInt8] {
        let profile = try await profileId.asyncMap { try await answerProfile($0) }
        var writer = JSONWriter(reservingCapacity: 256 + (profile?.bytes.count ?? 0))
        writer.object { writer in
            writer.member("notification_id", notification.notificationId)
            writer.member("outcome", outcome.rawValue)
            writer.member("message", message)
            writer.member("type", notification.event.storeType)
            if let original = notification.originalTransactionId { writer.member("original_transaction_id", original) }
            if let profileId { writer.member("profile_id", profileId) }
            if let profile {
                writer.key("profile")
                writer.raw(profile.bytes)
            }
        }
        return writer.bytes
    }
}

extension Optional {
    /// `map` for an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
