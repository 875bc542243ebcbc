import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PaywireModel
import PaywireServing
import PaywireWeb
import PaywireWire

/// `GET /dashboard/previews/{placement_id}/{variation_id}`: one variation's paywall as a buyer
/// would see it, drawn by the web paywall's renderer in preview mode, so what an operator checks
/// is what a buyer gets. It is a look, not a showing: no exposure is recorded and no visitor or
/// profile credential is made, so previews never count in the results they sit beside. It needs
/// only the bundle, so it answers whether or not the web paywall (--stripe-api-key) is on.
enum DashboardPreviewRoute {
    static func register(on routes: ServerRoutes, api: API) {
        routes.add(.get, "/dashboard/previews/{placement_id}/{variation_id}", door: .operatorPage(.dashboard)) { input in
            let nonce = WebPages.nonce(api.random)
            let answer = PreviewPage.answer(
                api.setup.webCatalog, products: Array(api.setup.products.values),
                placementId: input.path("placement_id"), variationId: input.path("variation_id"),
                query: PreviewQuery.read(locale: input.query["locale"], width: input.query["width"]), nonce: nonce,
                placementIds: api.setup.placements.keys.sorted())
            return response(answer.status, answer.html, nonce: nonce)
        }
    }

    /// The web paywall's headers (no-store, its Content-Security-Policy by the page's nonce), but
    /// framed by the server's own pages: the dashboard shows each preview in an iframe.
    static func response(_ status: HTTPResponse.Status, _ html: String, nonce: String) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                                   .contentSecurityPolicy: WebPages.policy(nonce: nonce, framedBy: "'self'"), .xContentTypeOptions: "nosniff"]
        if let referrer = HTTPField.Name("Referrer-Policy") { headers[referrer] = "same-origin" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

/// What a preview is asked for beside the variation: the language it speaks (`locale`, a
/// language tag; none: the placement's default) and the width it is drawn at (`width`, CSS
/// pixels). A value that is not one is refused by name rather than guessed at, since the
/// operator who typed it is the one reading the page.
struct PreviewQuery: Equatable {
    static let widths = 320...1440
    /// A phone's width, the default: most buyers see a paywall on one.
    static let phoneWidth = 390
    static let desktopWidth = 1280

    var locale: String?
    var width = phoneWidth

    static func read(locale: String?, width: String?) -> Result<PreviewQuery, PreviewProblem> {
        var query = PreviewQuery()
        if let locale, !locale.isEmpty {
            guard WebLocale.isTag(locale[...]) else {
                return .failure(PreviewProblem("'locale' must be a language tag such as en or pt-BR, not '\(locale)'"))
            }
            query.locale = locale
        }
        if let width, !width.isEmpty {
            guard width.utf8.count <= 4, width.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let pixels = Int(width),
                  widths.contains(pixels) else {
                return .failure(PreviewProblem("'width' must be a whole number of pixels from \(widths.lowerBound) to \(widths.upperBound), not '\(width)'"))
            }
            query.width = pixels
        }
        return .success(query)
    }
}

/// Why a preview's query cannot be drawn, in words for the operator.
struct PreviewProblem: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The preview's page for a variation. Pure, so every outcome is tested without a server: the
/// paywall, a holdout's note, a 404 for what the bundle lacks, and a layout that does not check
/// shown with the device's own message naming the field (operators need to see their mistake).
enum PreviewPage {
    /// The profile every preview is chosen for: forcing the variation skips bucketing, so the
    /// id only has to be one, and it is never stored.
    static let profileId = "preview"

    /// `placementIds`: the bundle's paywall placements, which a 404 for an unknown one lists and
    /// picks a did-you-mean from.
    static func answer(_ bundle: WebCatalog, products: [StoreProduct], placementId: String, variationId: String,
                       query: Result<PreviewQuery, PreviewProblem>, nonce: String,
                       placementIds: [String] = []) -> (status: HTTPResponse.Status, html: String) {
        let asked: PreviewQuery
        switch query {
        case .success(let query): asked = query
        case .failure(let problem): return (.badRequest, note("This preview cannot be drawn", problem.message, nonce: nonce))
        }
        if let lacking = missing(bundle, placementId: placementId, variationId: variationId, placementIds: placementIds) {
            return (.notFound, atWidth(note(lacking.title, lacking.message, nonce: nonce), asked.width, nonce: nonce))
        }
        let (status, html) = page(bundle, products: products, placementId: placementId, variationId: variationId,
                                  locale: asked.locale, nonce: nonce)
        return (status, atWidth(html, asked.width, nonce: nonce))
    }

    private static func page(_ bundle: WebCatalog, products: [StoreProduct], placementId: String, variationId: String,
                             locale: String?, nonce: String) -> (HTTPResponse.Status, String) {
        let chosen: WebPaywall?
        do {
            chosen = try bundle.webPaywall(placementId: placementId, for: WebPaywall.Visitor(profileId: profileId, locale: locale, activeAccessLevels: []),
                                           variationId: variationId, products: products)
        } catch {
            return (.unprocessableContent, note("This layout does not check", error.message, nonce: nonce))
        }
        guard let chosen else {
            return (.notFound, note("No such variation", "The bundle has no variation '\(variationId)' in placement '\(placementId)'.", nonce: nonce))
        }
        guard !chosen.holdout, let configuration = chosen.configuration else {
            return (.ok, note("holdout: shown nothing",
                              "Profiles in variation '\(variationId)' are shown no paywall: they are what the others are measured against.",
                              nonce: nonce, lang: chosen.language))
        }
        // Every plan is drawn, priced or not by Stripe: this previews the paywall, not the web checkout.
        return (.ok, PaywallPage.render(configuration, options: PaywallPage.Options(
            title: chosen.paywallName.isEmpty ? "Premium" : chosen.paywallName, lang: chosen.language, nonce: nonce, mode: .preview)))
    }

    /// What the preview's address names that the bundle lacks, the placement first (a variation
    /// of a missing placement is not the mistake): nil when both are there. Each says what the
    /// bundle has instead, and the id a typo away when there is one (`NearestName`).
    static func missing(_ bundle: WebCatalog, placementId: String, variationId: String,
                        placementIds: [String]) -> (title: String, message: String)? {
        let variations = bundle.variationIds(of: placementId)
        if variations.isEmpty {
            return ("No such placement", "The bundle has no paywall placement '\(placementId)'."
                + hint(placementId, among: placementIds, named: "Its paywall placements"))
        }
        guard !variations.contains(variationId) else { return nil }
        return ("No such variation", "Placement '\(placementId)' has no variation '\(variationId)'."
            + hint(variationId, among: variations, named: "Its variations"))
    }

    private static func hint(_ id: String, among ids: [String], named: String) -> String {
        if let meant = NearestName.suggestion(for: id, among: ids) { return " Did you mean '\(meant)'?" }
        guard !ids.isEmpty else { return "" }
        let listed = ids.prefix(12).map { "'\($0)'" }.joined(separator: ", ")
        return " \(named): \(listed)\(ids.count > 12 ? ", …" : "")."
    }

    private static func note(_ title: String, _ message: String, nonce: String, lang: String = "en") -> String {
        PaywallPage.notice(title: title, message: message, link: nil, refresh: nil, nonce: nonce, lang: lang)
    }

    /// The page drawn no wider than `width`, centred: one more style under the page's nonce,
    /// before the head closes (the only `</head>`: the sections' text is escaped). Framed at a
    /// phone's width it changes nothing; opened in a wide window it shows the phone's column.
    static func atWidth(_ html: String, _ width: Int, nonce: String) -> String {
        guard let end = html.range(of: "</head>") else { return html }
        let style = "<style nonce=\"\(nonce)\">body{max-width:\(width)px;margin-left:auto;margin-right:auto}</style>"
        return html.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: style)
    }
}
