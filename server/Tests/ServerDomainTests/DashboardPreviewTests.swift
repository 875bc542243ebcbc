import PaywireModel
import PaywireServing
import PaywireWire
import Testing
@testable import paywire_server

/// The dashboard's previews: what a preview's query means, the page each variation gets
/// (paywall, holdout note, 404, a layout's mistake named), and the frames the dashboard shows.
@Suite struct DashboardPreviewTests {
    let bundle = """
        {"format_version":1,"response_created_at":1700000000000,"placements":{
         "web":{"ab_test_name":"t","placement_audience_version_id":"web-v1","audience_name":"All","revision":2,"variations":[
          {"variation_id":"a","paywall_id":"pw-a","paywall_name":"A","weight":50,"products":["monthly"],
           "remote_configs":[{"lang":"en","data":"{}"},{"lang":"fr","data":"{}"}],
           "builder":{"layout":"stack","sections":[{"type":"header","title":"Go Premium"},
             {"type":"plan_selection","style":"radio_list","plans":[{"product_id":"monthly"}]}]}},
          {"variation_id":"h","paywall_id":"","paywall_name":"","weight":50,"products":[],"holdout":true}]},
         "broken":{"ab_test_name":"b","placement_audience_version_id":"broken-v1","variations":[
          {"variation_id":"x","paywall_id":"pw-x","paywall_name":"X","weight":100,"products":["monthly"],
           "builder":{"layout":"stack","sections":[{"type":"plan_selection","style":"radio_list","plans":[{"product_id":"yearly"}]}]}}]}}}
        """
    let products = """
        [{"vendor_product_id":"monthly","title":"Monthly","price":"9.99","period":{"unit":"month","number_of_units":1}}]
        """

    func answer(_ placementId: String, _ variationId: String, locale: String? = nil, width: String? = nil) throws -> (Int, String) {
        let served = try WebCatalog(ServableBundle.load(Array(bundle.utf8)))
        let answer = PreviewPage.answer(served, products: try StoreProduct.catalog(Array(products.utf8)), placementId: placementId,
                                        variationId: variationId, query: PreviewQuery.read(locale: locale, width: width), nonce: "n0nce",
                                        placementIds: ["broken", "web"])
        return (answer.status.code, answer.html)
    }

    @Test func noQueryIsAPhonesWidthInThePlacementsDefaultLanguage() {
        #expect(PreviewQuery.read(locale: nil, width: nil) == .success(PreviewQuery(locale: nil, width: 390)))
        #expect(PreviewQuery.read(locale: "", width: "") == .success(PreviewQuery(locale: nil, width: 390)))
        #expect(PreviewQuery.read(locale: "pt-BR", width: "1440") == .success(PreviewQuery(locale: "pt-BR", width: 1440)))
        #expect(PreviewQuery.read(locale: nil, width: "320") == .success(PreviewQuery(locale: nil, width: 320)))
    }

    @Test(arguments: ["319", "1441", "0", "-390", "+390", "39O", "99999", " 390"])
    func aWidthOutsideTheRangeOrNotANumberIsRefusedByName(width: String) {
        guard case .failure(let problem) = PreviewQuery.read(locale: nil, width: width) else {
            Issue.record("\(width) was taken")
            return
        }
        #expect(problem.message.contains("'width'") && problem.message.contains("320 to 1440"))
    }

    @Test(arguments: ["en US", "<b>", "fr;q=1", String(repeating: "a", count: 36)])
    func aLocaleThatIsNotALanguageTagIsRefusedByName(locale: String) {
        guard case .failure(let problem) = PreviewQuery.read(locale: locale, width: nil) else {
            Issue.record("\(locale) was taken")
            return
        }
        #expect(problem.message.contains("'locale'"))
    }

    @Test func aVariationsPreviewIsItsPaywallInPreviewModeAtTheAskedWidthAndLanguage() throws {
        let (status, html) = try answer("web", "a", locale: "fr", width: "1280")
        #expect(status == 200 && html.contains("Go Premium") && html.contains("<html lang=\"fr\""))
        #expect(!html.contains("<form"), "a preview posts nothing")
        #expect(html.contains("<style nonce=\"n0nce\">body{max-width:1280px;margin-left:auto;margin-right:auto}</style></head>"))
    }

    @Test func aHoldoutsPreviewSaysItIsShownNothing() throws {
        let (status, html) = try answer("web", "h")
        #expect(status == 200 && html.contains("holdout: shown nothing"))
    }

    @Test func anUnknownPlacementOrVariationIsA404PageNamingWhichIsMissing() throws {
        for (placement, variation, title, says) in [
            ("web", "nope", "No such variation", "Placement &#39;web&#39; has no variation &#39;nope&#39;. Its variations: &#39;a&#39;, &#39;h&#39;."),
            ("broken", "a", "No such variation", "Did you mean &#39;x&#39;?"),
            ("nowhere", "a", "No such placement", "The bundle has no paywall placement &#39;nowhere&#39;. Its paywall placements: &#39;broken&#39;, &#39;web&#39;."),
            ("wbe", "a", "No such placement", "Did you mean &#39;web&#39;?"),
        ] {
            let (status, html) = try answer(placement, variation)
            #expect(status == 404 && html.contains("<h1 class=\"pw-title\">\(title)</h1>") && html.contains(says), "\(placement)/\(variation)")
        }
    }

    @Test func aLayoutThatDoesNotCheckIsAPageNamingItsMistakeNotATrap() throws {
        let (status, html) = try answer("broken", "x")
        #expect(status == 422 && html.contains("This layout does not check")
                && html.contains("builder.sections[0].plans[0].product_id"))
    }

    @Test func aBadQueryIsA400PageNamingTheParameter() throws {
        let (status, html) = try answer("web", "a", width: "5000")
        #expect(status == 400 && html.contains("&#39;width&#39; must be a whole number"))
    }

    @Test func theDashboardFramesEachVariationTheBundleHasSandboxedWithLinksToItsWidthsAndLanguages() throws {
        let served = try WebCatalog(ServableBundle.load(Array(bundle.utf8)))
        let block = DashboardPage.previews(placementId: "web", variations: [("a", false), ("h", true), ("gone", false)], bundle: served)
        #expect(block.contains("<iframe src=\"/dashboard/previews/web/a\" title=\"Paywall of variation a\" width=\"390\" height=\"720\""))
        #expect(block.contains("<iframe src=\"/dashboard/previews/web/h\"") && block.contains("height=\"200\""))
        #expect(!block.contains("/dashboard/previews/web/gone"), "a variation the bundle lacks has no preview")
        #expect(block.components(separatedBy: "sandbox=\"allow-scripts\"").count == 3 && !block.contains("allow-same-origin"))
        #expect(block.contains("href=\"/dashboard/previews/web/a?width=1280\"") && block.contains("href=\"/dashboard/previews/web/a?locale=fr\""))
        #expect(DashboardPage.previews(placementId: "nowhere", variations: [("a", false)], bundle: served).isEmpty)
    }

    @Test func aPreviewsPathEncodesEachIdAsOneSegmentAndTheRouteReadsItBack() {
        #expect(DashboardPage.previewPath(placementId: "on board", variationId: "a/b") == "/dashboard/previews/on%20board/a%2Fb")
        // Every route reads its path through RouteInput: each segment percent-decoded once, and
        // one whose escapes are no UTF-8 refused (400) rather than taken as it came.
        #expect(URLComponent.decoded("on%20board") == "on board" && URLComponent.decoded("a%2Fb") == "a/b")
        #expect(URLComponent.decoded("100%") == nil)
    }
}
