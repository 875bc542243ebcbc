import FlyingFox
import Foundation
// Scoped: FlyingFox has a JSONValue of its own.
import enum PaywireWire.JSONValue

/// The stores whose server notifications the dev server takes (`/v1/notifications/<source>`).
enum NotificationSource: String, Sendable {
    case appStore = "app-store"
    case play
    case testStore = "test-store"
}

extension Routes {
    /// `POST /v1/notifications/{source}`: checks the notification, applies it to the profile
    /// owning its original transaction, and answers what came of it with that profile.
    /// A refusal (400, 404) stores nothing; a replayed id answers 200 and changes nothing.
    func notification(_ source: NotificationSource, _ request: HTTPRequest) async throws -> HTTPResponse {
        let body = Array(try await request.bodyData)
        let notification: StoreNotification
        switch source {
        case .appStore:
            do {
                notification = try await AppStoreNotification.parse(body, verifier: setup.appStore)
            } catch {
                return Reply.error(400, code: error.code, error.message)
            }
        case .play, .testStore:
            do {
                notification = source == .play ? try NotificationRequests.play(body, products: setup.products)
                    : try NotificationRequests.testStore(body, now: Self.now())
            } catch {
                return Reply.error(400, code: "invalid_request", error.message)
            }
        }
        switch try await setup.store.apply(notification) {
        case .unknownTransaction:
            // 404 rather than a recorded "unmatched": the store retries a non-2xx answer, and a
            // notification that raced ahead of the device's purchase post then lands.
            return Reply.error(404, code: "unknown_transaction",
                               "no verified transaction has original_transaction_id '\(notification.originalTransactionId)'; nothing was stored",
                               extra: [("original_transaction_id", .string(notification.originalTransactionId))])
        case .duplicate(let outcome, let profileId):
            return try await answer(notification, outcome: "duplicate", profileId: profileId,
                                    message: "notification already received (it was \(outcome)); nothing changed")
        case .done(let outcome, let profileId, let reason):
            return try await answer(notification, outcome: outcome, profileId: profileId,
                                    message: reason ?? "\(notification.event.storeType) applied to the grant")
        }
    }

    private func answer(_ notification: StoreNotification, outcome: String, profileId: String, message: String) async throws -> HTTPResponse {
        Reply.json(.object([
            ("notification_id", .string(notification.notificationId)),
            ("outcome", .string(outcome)),
            ("message", .string(message)),
            ("type", .string(notification.event.storeType)),
            ("original_transaction_id", .string(notification.originalTransactionId)),
            ("profile_id", .string(profileId)),
            ("profile", try await profileBody(profileId) ?? .object([])),
        ]))
    }
}
