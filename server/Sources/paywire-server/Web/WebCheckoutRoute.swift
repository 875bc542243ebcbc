import HTTPTypes
import Hummingbird
import PaywireModel
import PaywireServing
import ServerDomain

/// `POST /web/{placement_id}/checkout`: the visitor's chosen plan becomes a Stripe Checkout
/// Session and the browser goes there (`303`). The variation is chosen again for the visitor,
/// never taken from the form, so a purchase is counted where its profile was bucketed.
enum WebCheckoutRoute {
    /// A plan, a token and a variation id fit many times over.
    static let maxFormBytes = 4096

    static func checkout(_ api: API, _ web: WebSetup, placementId: String, form: LoginForm, cookie: String?,
                         host: String?) async throws -> Response {
        let nonce = WebPages.nonce(api.random)
        guard let visitor = try await WebVisitors(api: api).known(cookie),
              let csrf = form["csrf"], ConstantTime.same(Array(csrf.utf8), Array(visitor.visitor.csrf.utf8)) == 1 else {
            return WebPages.notice(.forbidden, title: "This page has expired", message: "Open the offer again to continue.",
                                   nonce: nonce, visitor: nil, web: web, link: ("Back to the offer", "/web/\(URLComponent.escaped(placementId))"))
        }
        let locale = WebLocale.preferred(nil, query: form["locale"])
        let back = "/web/\(URLComponent.escaped(placementId))"
        let chosen: WebPaywall
        switch WebChoice.choose(api, web, placementId: placementId, visitor: visitor, locale: locale, nonce: nonce) {
        case .page(let page): return page
        case .paywall(let paywall): chosen = paywall
        }
        guard !chosen.holdout else {
            return WebPages.notice(.notFound, title: "No such offer", message: "There is nothing to buy at this address.",
                                   nonce: nonce, visitor: visitor, web: web)
        }
        // The page was another variation's (the bundle changed since it was drawn): the visitor
        // sees this one before paying, so a sale is counted where its buyer was exposed.
        guard form["variation_id"] == chosen.exposure.variationId else {
            var headers: HTTPFields = [.location: back + (locale.map { "?locale=\(URLComponent.escaped($0))" } ?? ""), .cacheControl: "no-store"]
            if visitor.isNew { headers[.setCookie] = visitor.visitor.setCookie(secure: web.secureCookies) }
            return Response(status: .seeOther, headers: headers)
        }
        guard let productId = form["product_id"], chosen.productIds.contains(productId), let priceId = web.prices[productId],
              let product = api.setup.products[productId] else {
            return WebPages.notice(.badRequest, title: "Choose a plan", message: "That plan is not sold here: choose one of the offer's plans.",
                                   nonce: nonce, visitor: visitor, web: web, link: ("Back to the offer", back))
        }
        guard let base = web.base(host: host) else {
            return WebPages.notice(.badRequest, title: "Checkout cannot start", message: "This server does not know its own address.",
                                   nonce: nonce, visitor: visitor, web: web)
        }
        let request = StripeCheckoutRequest(
            mode: product.productType == .autorenewable ? "subscription" : "payment", priceId: priceId, profileId: visitor.visitor.profileId,
            placementId: placementId, abTestName: chosen.exposure.abTestName, variationId: chosen.exposure.variationId,
            successURL: base + back + "/success?session_id={CHECKOUT_SESSION_ID}", cancelURL: base + back)
        do {
            let session = try await web.checkout.create(request)
            api.logger.info("a web checkout started", metadata: ["checkout_session_id": .string(session.id),
                                                                 "placement_id": .string(placementId), "product_id": .string(productId)])
            var headers: HTTPFields = [.location: session.url, .cacheControl: "no-store"]
            if visitor.isNew { headers[.setCookie] = visitor.visitor.setCookie(secure: web.secureCookies) }
            return Response(status: .seeOther, headers: headers)
        } catch {
            api.logger.error("a web checkout could not start", metadata: ["problem": .string(error.message), "placement_id": .string(placementId)])
            return WebPages.notice(.badGateway, title: "The payment could not start", message: "Nothing was charged. Try again in a moment.",
                                   nonce: nonce, visitor: visitor, web: web, link: ("Back to the offer", back))
        }
    }
}
