import Logging
import PaywireModel
import PaywireWire
import ServerDomain

/// `POST /v1/webhooks/stripe`: a Stripe event, its signature checked first (401 and nothing
/// changes otherwise: the signature is this route's credential), then the purchase recorded for its owner and the lifecycle applied
/// through the stores' rules, once per event id.
extension API {
    /// `signature`: the `Stripe-Signature` header as sent.
    func postStripeWebhook(body: [UInt8], signature: String?) async throws -> Answer {
        guard let stripe = setup.stripe else {
            ServerMetrics.notification(source: .stripe, outcome: "not_configured")
            logger.error("a Stripe webhook came and this server has no --stripe-webhook-secret; answered 503")
            return .error(.serviceUnavailable, "stripe_not_configured",
                          "this server has no --stripe-webhook-secret: the event cannot be verified; nothing changed")
        }
        do {
            _ = try stripe.verify(header: signature, body: body, now: clock.nowSeconds())
        } catch {
            ServerMetrics.notification(source: .stripe, outcome: "invalid_signature")
            logger.warning("a Stripe webhook was refused", metadata: ["reason": .string(error.message)])
            return .error(.unauthorized, "invalid_signature", error.message)
        }
        let effect: StripeEffect
        do {
            effect = try StripeEvent.effect(body, prices: setup.stripePrices)
        } catch {
            ServerMetrics.notification(source: .stripe, outcome: "refused")
            return .invalid(error.message)
        }
        if let seen = try await setup.store.notificationSeen(source: .stripe, notificationId: effect.eventId) {
            ServerMetrics.notification(source: .stripe, outcome: NotificationOutcome.duplicate.rawValue)
            return .json(.ok, StripeAnswer(eventId: effect.eventId, type: effect.type, outcome: .duplicate,
                                           message: "event already received (it was \(seen.outcome.rawValue)); nothing changed",
                                           profileId: seen.profileId).bytes)
        }
        let text = String(decoding: body, as: UTF8.self)
        guard effect.lifecycle != nil || effect.checkoutSessionId != nil else {
            return .json(.ok, try await record(effect, text: text).bytes)
        }
        let links = try await setup.store.stripeLinks(effect.lookupKeys)
        guard let plan = StripeRules.plan(effect, links: links) else {
            return unknownPurchase(effect)
        }
        try await setup.store.keepStripe(checkout: plan.checkout, links: plan.links, customer: plan.customer)
        let purchased = try await recordWebPurchase(effect, plan, text: text)
        let notification = StoreNotification(
            source: .stripe, notificationId: effect.eventId, originalTransactionId: plan.originalTransactionId,
            event: effect.lifecycle ?? LifecycleEvent(kind: .other, storeType: effect.type, subtype: nil, at: effect.at), text: text)
        var answer: StripeAnswer
        switch try await setup.store.apply(notification) {
        case .unknownTransaction:
            // A checkout whose purchase waits for its subscription's events: kept, linked, recorded.
            guard effect.lifecycle == nil else { return unknownPurchase(effect) }
            answer = try await record(effect, text: text)
            answer.profileId = plan.owner
        case .duplicate(let outcome, let profileId):
            answer = StripeAnswer(eventId: effect.eventId, type: effect.type, outcome: .duplicate,
                                  message: "event already received (it was \(outcome.rawValue)); nothing changed", profileId: profileId)
        case .done(let outcome, let profileId, let reason):
            let applied: NotificationOutcome = outcome == .applied || purchased ? .applied : outcome
            ServerMetrics.notification(source: .stripe, outcome: applied.rawValue)
            answer = StripeAnswer(eventId: effect.eventId, type: effect.type, outcome: applied,
                                  message: purchased && effect.lifecycle == nil ? "the web purchase is recorded" : (effect.reason ?? reason ?? "\(effect.type) applied to the grant"),
                                  originalTransactionId: plan.originalTransactionId, profileId: profileId)
        }
        if let checkout = plan.checkout, checkout.redeemable { answer.checkoutSessionId = checkout.checkoutSessionId }
        return .json(.ok, answer.bytes)
    }

    /// The purchase an event starts, recorded for the plan's owner (idempotent on its id). A
    /// plan change names a new product for a purchase already kept: that is the lifecycle's.
    private func recordWebPurchase(_ effect: StripeEffect, _ plan: StripeRules.Plan, text: String) async throws -> Bool {
        guard effect.lifecycle?.kind != .didChangeRenewalPref, let productId = effect.productId, let product = setup.products[productId] else {
            return false
        }
        switch try await recordStorePurchase(owner: plan.owner, transactionId: plan.originalTransactionId, productId: productId, product: product,
                                             store: .stripe, verification: "stripe_webhook",
                                             purchasedAt: effect.purchasedAt ?? effect.at, environment: effect.environment, text: text,
                                             attribution: effect.attribution) {
        case .success: return effect.checkoutSessionId != nil
        case .failure(let refusal):
            logger.warning("a Stripe purchase was not recorded",
                                                   metadata: ["event_id": .string(effect.eventId), "reason": .string(refusal.message)])
            return false
        }
    }

    /// An event that changes no access, recorded under no profile.
    private func record(_ effect: StripeEffect, text: String) async throws -> StripeAnswer {
        let notification = StoreNotification(source: .stripe, notificationId: effect.eventId, originalTransactionId: nil,
                                             event: LifecycleEvent(kind: .other, storeType: effect.type, subtype: nil, at: effect.at), text: text)
        let outcome = try await setup.store.apply(notification)
        if effect.lifecycle == nil, effect.checkoutSessionId == nil, StripeEvent.handled(effect.type) {
            logger.warning("a Stripe event changed no access", metadata: ["event_id": .string(effect.eventId),
                                                                       "type": .string(effect.type), "reason": .string(effect.reason ?? "")])
        }
        if case .duplicate(let earlier, let profileId) = outcome {
            return StripeAnswer(eventId: effect.eventId, type: effect.type, outcome: .duplicate,
                                message: "event already received (it was \(earlier.rawValue)); nothing changed", profileId: profileId)
        }
        ServerMetrics.notification(source: .stripe, outcome: NotificationOutcome.recorded.rawValue)
        return StripeAnswer(eventId: effect.eventId, type: effect.type, outcome: .recorded,
                            message: effect.reason ?? "\(effect.type) is recorded; access does not change")
    }

    private func unknownPurchase(_ effect: StripeEffect) -> Answer {
        ServerMetrics.notification(source: .stripe, outcome: "unknown_transaction")
        return .error(.notFound, "unknown_transaction",
                      "no checkout, metadata.paywire_profile_id or customer names the owner of \(effect.type) '\(effect.eventId)' yet; nothing was stored, and Stripe's retry lands once the checkout's event did")
    }
}

/// `StripeWebhookResult`: what an event came to.
struct StripeAnswer: Sendable {
    let eventId: String
    let type: String
    let outcome: NotificationOutcome
    let message: String
    var originalTransactionId: String? = nil
    var profileId: String? = nil
    var checkoutSessionId: String? = nil

    var bytes: [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256)
        writer.object { writer in
            writer.member("event_id", eventId)
            writer.member("type", type)
            writer.member("outcome", outcome.rawValue)
            writer.member("message", message)
            if let originalTransactionId { writer.member("original_transaction_id", originalTransactionId) }
            if let profileId { writer.member("profile_id", profileId) }
            if let checkoutSessionId { writer.member("checkout_session_id", checkoutSessionId) }
        }
        return writer.bytes
    }
}
