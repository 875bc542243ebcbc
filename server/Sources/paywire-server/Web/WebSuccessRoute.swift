import HTTPTypes
import Hummingbird
import PaywireModel
import PaywireWeb
import PaywireWire
import ServerDomain

/// `GET /web/{placement_id}/success?session_id=…`: where Stripe sends the buyer back. The
/// buyer's own browser (the checkout's profile in its cookie) gets a redemption link that opens
/// the app; until Stripe's webhook has landed, the page says so and looks again. The link is the
/// same on every load of the page in that browser (`Redemption.buyersToken`), so the one the
/// buyer saved keeps working: a reload gave a new link and voided the saved one (F9).
enum WebSuccessRoute {
    static let refreshSeconds = 2
    /// How often the page looks again for the webhook (a minute), before it says to come back.
    static let attempts = 30

    static func success(_ api: API, _ web: WebSetup, placementId: String, sessionId: String?, attempt: Int,
                        cookie: String?) async throws -> Response {
        let nonce = WebPages.nonce(api.random)
        let back = ("Back to the offer", "/web/\(URLComponent.escaped(placementId))")
        guard let visitor = try await WebVisitors(api: api).known(cookie) else {
            return WebPages.notice(.forbidden, title: "Open this page where you paid",
                                   message: "This browser did not make this purchase.", nonce: nonce, visitor: nil, web: web, link: back)
        }
        guard let sessionId, !sessionId.isEmpty, sessionId.utf8.count <= 255 else {
            return WebPages.notice(.badRequest, title: "No purchase named", message: "This address names no checkout.",
                                   nonce: nonce, visitor: visitor, web: web, link: back)
        }
        guard let state = try await api.setup.store.webCheckout(sessionId) else {
            let page = "/web/\(URLComponent.escaped(placementId))/success?session_id=\(URLComponent.escaped(sessionId))"
            guard attempt < attempts else {
                return WebPages.notice(.ok, title: "Your payment is still being confirmed",
                                       message: "Stripe has not told us yet. Nothing more is needed from you: open this page again in a few minutes.",
                                       nonce: nonce, visitor: visitor, web: web, link: ("Look again", page))
            }
            return WebPages.notice(.ok, title: "Confirming your payment…", message: "This takes a few seconds; the page looks again by itself.",
                                   nonce: nonce, visitor: visitor, web: web, refresh: (refreshSeconds, page + "&attempt=\(attempt + 1)"))
        }
        guard Identity.same(state.holder, visitor.visitor.profileId) else {
            return WebPages.notice(.forbidden, title: "Open this page where you paid",
                                   message: "This browser did not make this purchase.", nonce: nonce, visitor: visitor, web: web, link: back)
        }
        if state.redeemedBy != nil {
            return WebPages.notice(.ok, title: "Your purchase is in the app", message: "It was already opened in the app.",
                                   nonce: nonce, visitor: visitor, web: web)
        }
        let (token, digest) = Redemption.buyersToken(credential: visitor.visitor.credential, checkoutSessionId: sessionId)
        let now = api.clock.nowMilliseconds()
        var expiresAt = now + api.setup.redemptionTTLMillis
        if let kept = Redemption.stillGiven(state, digest: digest, now: now) {
            expiresAt = kept
        } else {
            guard case .issued = try await api.setup.store.issueRedemption(checkoutSessionId: sessionId, digest: digest, expiresAt: expiresAt) else {
                return WebPages.notice(.conflict, title: "Nothing to open", message: "This purchase has nothing left to open in the app.",
                                       nonce: nonce, visitor: visitor, web: web)
            }
        }
        let link = Redemption.link(base: api.setup.redemptionLinkBase, token: token)
        return WebPages.html(.ok, PaywallPage.redemption(link: link, expiresAt: expiresAt, now: now,
                                                              qrSVG: RedemptionQR.svg(link), nonce: nonce),
                             nonce: nonce, visitor: visitor, web: web)
    }
}
