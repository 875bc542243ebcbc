import HTTPTypes
import Hummingbird
import NIOCore
import PaywireModel
import PaywireServing
import PaywireWeb
import PaywireWire
import ServerDomain

/// The web paywall (`--stripe-api-key`): `GET /web/{placement_id}` shows a browser the
/// placement's paywall, `POST /web/{placement_id}/checkout` sends it to Stripe Checkout for the
/// chosen plan, `GET /web/{placement_id}/success` gives the buyer the link that opens the app.
/// A visitor is a profile (`WebVisitor`) chosen for as a device is, so the same id meets the
/// same variation on both; its showing, once its browser has drawn the page and sent the page's
/// beacon (`POST /web/{placement_id}/seen`), is an exposure with `platform: web`.
enum WebPaywallRoute {
    static func register(on routes: ServerRoutes, api: API, web: WebSetup) {
        routes.add(.get, "/web/{placement_id}", door: .visitor) { input in
            let served = api.serving(input)
            let placementId = input.path("placement_id")
            let visitor: WebVisitors.Admitted
            do {
                visitor = try await WebVisitors(api: served).admit(input.headers[.cookie], from: input.clientAddress)
            } catch let limited as ProfileDoor.TooManyNew {
                var response = WebPages.notice(.tooManyRequests, title: "Too many visitors at once",
                                               message: "Too many new visitors came from your network just now. Try again in a minute.",
                                               nonce: WebPages.nonce(served.random), visitor: nil, web: web)
                response.headers[.retryAfter] = String(limited.waitSeconds)
                return response
            }
            return try await page(served, web, placementId: placementId, visitor: visitor,
                                  locale: WebLocale.preferred(input.headers[.acceptLanguage], query: input.query["locale"]))
        }
        routes.add(.post, "/web/{placement_id}/checkout", door: .visitor, bodyLimit: WebCheckoutRoute.maxFormBytes) { input in
            try await WebCheckoutRoute.checkout(api.serving(input), web, placementId: input.path("placement_id"), form: LoginForm(input.body),
                                                cookie: input.headers[.cookie], host: input.authority)
        }
        routes.add(.post, "/web/{placement_id}/seen", door: .visitor, bodyLimit: WebCheckoutRoute.maxFormBytes) { input in
            try await seen(api.serving(input), web, placementId: input.path("placement_id"), form: LoginForm(input.body), cookie: input.headers[.cookie])
        }
        routes.add(.get, "/web/{placement_id}/success", door: .visitor) { input in
            try await WebSuccessRoute.success(api.serving(input), web, placementId: input.path("placement_id"), sessionId: input.query["session_id"],
                                              attempt: input.query["attempt"].flatMap { Int($0) }.map { max(0, $0) } ?? 0,
                                              cookie: input.headers[.cookie])
        }
    }

    /// The paywall page of `placementId` for `visitor`, with the beacon that counts its showing
    /// once a browser has drawn it (`seen`).
    static func page(_ api: API, _ web: WebSetup, placementId: String, visitor: WebVisitors.Admitted, locale: String?) async throws -> Response {
        let nonce = WebPages.nonce(api.random)
        let chosen: WebPaywall
        switch WebChoice.choose(api, web, placementId: placementId, visitor: visitor, locale: locale, nonce: nonce) {
        case .page(let page): return page
        case .paywall(let paywall): chosen = paywall
        }
        let beacon = WebExposure.beacon(placementId: placementId, variationId: chosen.exposure.variationId, locale: locale ?? "",
                                        page: nonce, credential: visitor.visitor.credential)
        guard let configuration = chosen.configuration.map({ WebPlans.sellable($0, prices: web.prices) }) else {
            return WebPages.notice(.ok, title: "Nothing to buy right now", message: "There is no offer for you here at the moment.",
                                   nonce: nonce, visitor: visitor, web: web, seen: beacon)
        }
        var options = PaywallPage.Options(
            title: chosen.paywallName.isEmpty ? "Premium" : chosen.paywallName, lang: chosen.language, nonce: nonce,
            mode: .live(checkoutAction: "/web/\(URLComponent.escaped(placementId))/checkout",
                        hiddenFields: [("csrf", visitor.visitor.csrf), ("variation_id", chosen.exposure.variationId),
                                       ("locale", locale ?? "")]))
        options.seen = beacon
        return WebPages.html(.ok, PaywallPage.render(configuration, options: options), nonce: nonce, visitor: visitor, web: web)
    }

    /// `POST /web/{placement_id}/seen`, a page's beacon: the showing is kept as an exposure when
    /// the cookie's visitor is the one the page was drawn for (the token), and the variation is
    /// still the one it is chosen for (a page of another, drawn before the bundle changed, counts
    /// nowhere). `204` once kept (again: the same page is one exposure); `403` for a beacon this
    /// visitor's page did not carry.
    static func seen(_ api: API, _ web: WebSetup, placementId: String, form: LoginForm, cookie: String?) async throws -> Response {
        let answered = Response(status: .noContent, headers: [.cacheControl: "no-store"])
        guard let visitor = try await WebVisitors(api: api).known(cookie), let page = form["page"], let variationId = form["variation_id"],
              let token = form["token"] else {
            return Response(status: .forbidden, headers: [.cacheControl: "no-store"])
        }
        let locale = form["locale"] ?? ""
        let expected = WebExposure.token(credential: visitor.visitor.credential, placementId: placementId, variationId: variationId,
                                         locale: locale, page: page)
        guard ConstantTime.same(Array(token.utf8), Array(expected.utf8)) == 1 else {
            return Response(status: .forbidden, headers: [.cacheControl: "no-store"])
        }
        let nonce = WebPages.nonce(api.random)
        guard case .paywall(let chosen) = WebChoice.choose(api, web, placementId: placementId, visitor: visitor,
                                                           locale: WebLocale.preferred(nil, query: locale), nonce: nonce),
              chosen.exposure.variationId == variationId else { return answered }
        do {
            let record = try WebExposure.record(chosen.exposure, profileId: visitor.visitor.profileId,
                                                eventId: WebExposure.eventId(beaconToken: token), at: api.clock.nowMilliseconds())
            _ = try await api.setup.store.storeEvents([record], dropped: 0)
        } catch let problem as WireError {
            // The server's own mistake, which the log names; the browser has nothing to do about it.
            api.logger.error("a web exposure could not be recorded", metadata: ["placement_id": .string(placementId), "problem": .string(problem.message)])
        }
        return answered
    }
}

/// The language a browser asks for: `?locale=` when given, else the first of `Accept-Language`;
/// nil when neither is a language tag's characters.
enum WebLocale {
    static func preferred(_ acceptLanguage: String?, query: String?) -> String? {
        if let query, let tag = tag(query[...]) { return tag }
        guard let first = acceptLanguage?.split(separator: ",").first?.split(separator: ";").first else { return nil }
        return tag(first.trimmingCharacters(in: .whitespaces)[...])
    }

    private static func tag(_ text: Substring) -> String? {
        isTag(text) ? String(text) : nil
    }

    /// A language tag's shape, as far as a page takes one: 1 to 35 letters, digits, `-` and
    /// `_` (what `Accept-Language`'s `*` or anything that could leave an attribute is not).
    static func isTag(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= 35 && text.utf8.allSatisfy { c in
            (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
        }
    }
}
