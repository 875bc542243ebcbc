import Foundation
import Logging
import PaywireAPI

/// `POST /v1/webhooks/stripe`: a Stripe event, its signature checked first (400 and nothing
/// changes otherwise), then the purchase recorded for its owner and the lifecycle applied
/// through the stores' rules, once per event id.
extension API {
    static let stripeSource = "stripe"

    func postStripeWebhook(_ input: Operations.PostStripeWebhook.Input) async throws -> Operations.PostStripeWebhook.Output {
        guard let stripe = setup.stripe else {
            ServerMetrics.notification(source: Self.stripeSource, outcome: "not_configured")
            Logger(label: "paywire-server").error("a Stripe webhook came and this server has no --stripe-webhook-secret; answered 503")
            return .serviceUnavailable(.init(body: .json(ErrorDocument(
                "stripe_not_configured", "this server has no --stripe-webhook-secret: the event cannot be verified; nothing changed"))))
        }
        let body = RawBody.current
        do {
            _ = try stripe.verify(header: input.headers.stripeSignature, body: body, now: Int(Date().timeIntervalSince1970))
        } catch {
            ServerMetrics.notification(source: Self.stripeSource, outcome: "invalid_signature")
            Logger(label: "paywire-server").warning("a Stripe webhook was refused", metadata: ["reason": .string(error.message)])
            return .badRequest(.init(body: .json(ErrorDocument("invalid_signature", error.message))))
        }
        let effect: StripeEffect
        do {
            effect = try StripeEvent.effect(body, prices: setup.stripePrices)
        } catch {
            ServerMetrics.notification(source: Self.stripeSource, outcome: "refused")
            return .badRequest(.init(body: .json(ErrorDocument("invalid_request", error.message))))
        }
        if let seen = try await setup.store.notificationSeen(source: Self.stripeSource, notificationId: effect.eventId) {
            ServerMetrics.notification(source: Self.stripeSource, outcome: "duplicate")
            return .ok(.init(body: .json(.init(eventId: effect.eventId, _type: effect.type, outcome: .duplicate,
                                               message: "event already received (it was \(seen.outcome)); nothing changed",
                                               profileId: seen.profileId))))
        }
        let text = String(decoding: body, as: UTF8.self)
        guard effect.lifecycle != nil || effect.checkoutSessionId != nil else {
            return .ok(.init(body: .json(try await record(effect, text: text))))
        }
        let links = try await setup.store.stripeLinks(effect.lookupKeys)
        guard let plan = StripeRules.plan(effect, links: links) else {
            return unknownPurchase(effect)
        }
        try await setup.store.keepStripe(checkout: plan.checkout, links: plan.links, customer: plan.customer)
        let purchased = try await recordWebPurchase(effect, plan, text: text)
        let notification = StoreNotification(
            source: Self.stripeSource, notificationId: effect.eventId, originalTransactionId: plan.originalTransactionId,
            event: effect.lifecycle ?? LifecycleEvent(kind: .other, storeType: effect.type, subtype: nil, at: effect.at), text: text)
        var answer: Components.Schemas.StripeWebhookResult
        switch try await setup.store.apply(notification) {
        case .unknownTransaction:
            // A checkout whose purchase waits for its subscription's events: kept, linked, recorded.
            guard effect.lifecycle == nil else { return unknownPurchase(effect) }
            answer = try await record(effect, text: text)
            answer.profileId = plan.owner
        case .duplicate(let outcome, let profileId):
            answer = .init(eventId: effect.eventId, _type: effect.type, outcome: .duplicate,
                           message: "event already received (it was \(outcome)); nothing changed", profileId: profileId)
        case .done(let outcome, let profileId, let reason):
            let applied = outcome == "applied" || purchased
            ServerMetrics.notification(source: Self.stripeSource, outcome: applied ? "applied" : outcome)
            answer = .init(eventId: effect.eventId, _type: effect.type, outcome: applied ? .applied : .recorded,
                           message: purchased && effect.lifecycle == nil ? "the web purchase is recorded" : (effect.reason ?? reason ?? "\(effect.type) applied to the grant"),
                           originalTransactionId: plan.originalTransactionId, profileId: profileId)
        }
        if let checkout = plan.checkout, checkout.redeemable { answer.checkoutSessionId = checkout.checkoutSessionId }
        return .ok(.init(body: .json(answer)))
    }

    /// The purchase an event starts, recorded for the plan's owner (idempotent on its id). A
    /// plan change names a new product for a purchase already kept: that is the lifecycle's.
    private func recordWebPurchase(_ effect: StripeEffect, _ plan: StripeRules.Plan, text: String) async throws -> Bool {
        guard effect.lifecycle?.kind != .didChangeRenewalPref, let productId = effect.productId, let product = setup.products[productId] else {
            return false
        }
        switch try await recordStorePurchase(owner: plan.owner, transactionId: plan.originalTransactionId, productId: productId, product: product,
                                             store: Self.stripeSource, verification: "stripe_webhook",
                                             purchasedAt: effect.purchasedAt ?? effect.at, environment: effect.environment, text: text,
                                             attribution: effect.attribution) {
        case .success: return effect.checkoutSessionId != nil
        case .failure(let refusal):
            Logger(label: "paywire-server").warning("a Stripe purchase was not recorded",
                                                   metadata: ["event_id": .string(effect.eventId), "reason": .string(refusal.message)])
            return false
        }
    }

    /// An event that changes no access, recorded under no profile.
    private func record(_ effect: StripeEffect, text: String) async throws -> Components.Schemas.StripeWebhookResult {
        let notification = StoreNotification(source: Self.stripeSource, notificationId: effect.eventId, originalTransactionId: nil,
                                             event: LifecycleEvent(kind: .other, storeType: effect.type, subtype: nil, at: effect.at), text: text)
        let outcome = try await setup.store.apply(notification)
        if effect.lifecycle == nil, effect.checkoutSessionId == nil, StripeEvent.handled(effect.type) {
            Logger(label: "paywire-server").warning("a Stripe event changed no access", metadata: ["event_id": .string(effect.eventId),
                                                   "type": .string(effect.type), "reason": .string(effect.reason ?? "")])
        }
        if case .duplicate(let earlier, let profileId) = outcome {
            return .init(eventId: effect.eventId, _type: effect.type, outcome: .duplicate,
                         message: "event already received (it was \(earlier)); nothing changed", profileId: profileId)
        }
        ServerMetrics.notification(source: Self.stripeSource, outcome: "recorded")
        return .init(eventId: effect.eventId, _type: effect.type, outcome: .recorded,
                     message: effect.reason ?? "\(effect.type) is recorded; access does not change")
    }

    private func unknownPurchase(_ effect: StripeEffect) -> Operations.PostStripeWebhook.Output {
        ServerMetrics.notification(source: Self.stripeSource, outcome: "unknown_transaction")
        return .notFound(.init(body: .json(ErrorDocument(
            "unknown_transaction",
            "no checkout, metadata.paywire_profile_id or customer names the owner of \(effect.type) '\(effect.eventId)' yet; nothing was stored, and Stripe's retry lands once the checkout's event did"))))
    }
}
