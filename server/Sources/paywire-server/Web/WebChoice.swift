import HTTPTypes
import Hummingbird
import PaywireModel
import PaywireServing

/// The paywall a visitor is shown, chosen once the same way for the page and for its checkout,
/// or the page that says why there is none: no such placement (`404`), or a layout that does
/// not check (`500`, and an `error` log naming the field: the operator's mistake, never hidden).
enum WebChoice {
    case paywall(WebPaywall)
    case page(Response)

    static func choose(_ api: API, _ web: WebSetup, placementId: String, visitor: WebVisitors.Admitted, locale: String?,
                       nonce: String) -> WebChoice {
        do {
            guard let chosen = try api.setup.webCatalog.webPaywall(placementId: placementId, for: WebPaywall.Visitor(
                profileId: visitor.visitor.profileId, locale: locale, activeAccessLevels: []), products: Array(api.setup.products.values)) else {
                return .page(WebPages.notice(.notFound, title: "No such offer", message: "There is nothing to buy at this address.",
                                             nonce: nonce, visitor: visitor, web: web))
            }
            return .paywall(chosen)
        } catch {
            api.logger.error("a web paywall's layout does not check", metadata: ["placement_id": .string(placementId), "problem": .string(error.message)])
            return .page(WebPages.notice(.internalServerError, title: "This page cannot be shown",
                                         message: "Its layout has a mistake the operator has been told about.", nonce: nonce, visitor: visitor, web: web))
        }
    }
}
