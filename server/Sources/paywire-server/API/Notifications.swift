import Logging
import PaywireAPI

/// `POST /v1/notifications/{test-store,app-store,play}`: a store's server notification, checked,
/// applied to the profile owning its original transaction, answered with that profile. A
/// refusal (400, 404) stores nothing; a replayed id answers 200 `duplicate` and changes nothing.
extension API {
    func postTestStoreNotification(_ input: Operations.PostTestStoreNotification.Input) async throws
        -> Operations.PostTestStoreNotification.Output {
        guard setup.testStore != nil else {
            ServerMetrics.notification(source: "test", outcome: "refused")
            return .badRequest(Self.invalid("the test store is off on this server (--dev or --test-signing-key turns it on)", code: "test_store_off"))
        }
        let notification: StoreNotification
        do {
            notification = try NotificationRequests.testStore(RawBody.current, now: ServerSetup.now())
        } catch {
            ServerMetrics.notification(source: "test", outcome: "refused")
            return .badRequest(Self.invalid(error.message))
        }
        switch try await apply(notification) {
        case .result(let result): return .ok(.init(body: .json(result)))
        case .unknownTransaction(let error): return .notFound(.init(body: .json(error)))
        }
    }

    func postAppStoreNotification(_ input: Operations.PostAppStoreNotification.Input) async throws
        -> Operations.PostAppStoreNotification.Output {
        let notification: StoreNotification
        do {
            notification = try await AppStoreNotification.parse(RawBody.current, verifier: setup.appStore)
        } catch {
            ServerMetrics.notification(source: "app_store", outcome: "refused")
            return .badRequest(.init(body: .json(ErrorDocument(error.code, error.message))))
        }
        if notification.event.storeType == "TEST" {
            // App Store Connect's "send a test notification": what an operator looks for.
            Logger(label: "paywire-server").notice("App Store TEST notification received",
                                                   metadata: ["notification_id": .string(notification.notificationId)])
        }
        switch try await apply(notification) {
        case .result(let result): return .ok(.init(body: .json(result)))
        case .unknownTransaction(let error): return .notFound(.init(body: .json(error)))
        }
    }

    func postPlayNotification(_ input: Operations.PostPlayNotification.Input) async throws -> Operations.PostPlayNotification.Output {
        var notification: StoreNotification, lookup: PlayLookup?
        do {
            (notification, lookup) = try PlayNotification.parse(RawBody.current, products: setup.products)
        } catch {
            ServerMetrics.notification(source: "play_store", outcome: "refused")
            return .badRequest(Self.invalid(error.message))
        }
        if notification.event.storeType == PlayNotification.testType {
            // Play Console's "send test notification": what an operator looks for.
            Logger(label: "paywire-server").notice("Google Play test notification received",
                                                   metadata: ["message_id": .string(notification.notificationId)])
        }
        if setup.playAPI == nil, setup.dev == nil, lookup != nil {
            // What a real RTDN says of a purchase is only that it changed: without the Play
            // Developer API no state is read from it (an added expiry is the dev server's
            // convenience). Pub/Sub retries a 5xx, so the push lands once the key is given.
            ServerMetrics.notification(source: "play_store", outcome: "play_api_not_configured")
            Logger(label: "paywire-server").error("a Play notification names a purchase, and this server has no --play-service-account; the push is answered 503",
                                                  metadata: ["message_id": .string(notification.notificationId)])
            return .serviceUnavailable(.init(body: .json(ErrorDocument(
                "play_api_not_configured",
                "this server has no --play-service-account: a Play notification tells only that a purchase changed, and its state is asked of the Play Developer API; nothing changed"))))
        }
        if let api = setup.playAPI, let lookup {
            do {
                let link: PlayLink?
                (notification, link) = try await Self.asking(api, lookup, notification)
                if let link { try await follow(link, to: notification) }
            } catch let error as PlayAPIProblem {
                // Never a silent success: Pub/Sub retries a 5xx, and the push then lands.
                ServerMetrics.notification(source: "play_store", outcome: "play_api_unavailable")
                Logger(label: "paywire-server").warning("the Play Developer API gave no purchase state; the push is answered 503",
                                                       metadata: ["message_id": .string(notification.notificationId), "reason": .string(error.message)])
                return .serviceUnavailable(.init(body: .json(ErrorDocument("play_api_unavailable", error.message))))
            }
        }
        switch try await apply(notification) {
        case .result(let result): return .ok(.init(body: .json(result)))
        case .unknownTransaction(let error): return .notFound(.init(body: .json(error)))
        }
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
                                                     environment: link.isTestPurchase ? "Sandbox" : "Production", text: notification.text)
        if case .failure(let refusal) = recorded {
            Logger(label: "paywire-server").warning("a replacing Play purchase was not recorded for the replaced one's owner",
                                                   metadata: ["message_id": .string(notification.notificationId), "reason": .string(refusal.message)])
        }
    }

    /// Applies a checked notification; an unknown original transaction is a 404 rather than a
    /// recorded "unmatched": the store retries a non-2xx answer, and a notification that raced
    /// ahead of the device's purchase post then lands.
    private func apply(_ notification: StoreNotification) async throws -> Applied {
        let outcome = try await setup.store.apply(notification)
        switch outcome {
        case .done(_, let profileId?, _), .duplicate(_, let profileId?): try await keepConsumptionRequest(notification, profileId: profileId)
        default: break
        }
        switch outcome {
        case .unknownTransaction: ServerMetrics.notification(source: notification.source, outcome: "unknown_transaction")
        case .duplicate: ServerMetrics.notification(source: notification.source, outcome: "duplicate")
        case .done(let done, _, _): ServerMetrics.notification(source: notification.source, outcome: done)
        }
        switch outcome {
        case .unknownTransaction:
            return .unknownTransaction(ErrorDocument(
                "unknown_transaction",
                "no verified transaction has original_transaction_id '\(notification.originalTransactionId ?? "")'; nothing was stored"))
        case .duplicate(let outcome, let profileId):
            return .result(try await result(notification, .duplicate, profileId: profileId,
                                             message: "notification already received (it was \(outcome)); nothing changed"))
        case .done(let outcome, let profileId, let reason):
            return .result(try await result(notification, outcome == "applied" ? .applied : .recorded, profileId: profileId,
                                             message: reason ?? "\(notification.event.storeType) applied to the grant"))
        }
    }

    private func result(_ notification: StoreNotification, _ outcome: Components.Schemas.NotificationResult.OutcomePayload,
                        profileId: String?, message: String) async throws -> Components.Schemas.NotificationResult {
        .init(notificationId: notification.notificationId, outcome: outcome, message: message, _type: notification.event.storeType,
              originalTransactionId: notification.originalTransactionId, profileId: profileId,
              profile: try await profileId.asyncMap { try await answerProfile($0) })
    }
}

extension Optional {
    /// `map` for an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

/// What applying a notification answers: the result, or `404 unknown_transaction`.
enum Applied {
    case result(Components.Schemas.NotificationResult)
    case unknownTransaction(ErrorDocument)
}
