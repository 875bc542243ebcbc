import PaywireModel
import PaywireWire
@testable import ServerDomain
import Testing
@testable import paywire_server

/// The web paywall's pure rules: the visitor's cookie, what a checkout session is asked for,
/// which plans a page offers, the language a browser asks, and where Stripe sends a buyer back.
@Suite struct WebPaywallTests {
    let credential = String(repeating: "A", count: 42) + "Q"
    let profileId = "web-" + String(repeating: "0123456789abcdef", count: 2)

    @Test func aVisitorsCookieNamesItsProfileAndCredentialAndIsHttpOnlyAndLaxOnWebOnly() {
        let visitor = WebVisitor(profileId: profileId, credential: credential)
        let cookie = visitor.setCookie(secure: true)
        #expect(cookie.hasPrefix("paywire_visitor=\(profileId).\(credential);"))
        #expect(cookie.contains("Path=/web;") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.hasSuffix("; Secure"))
        #expect(!visitor.setCookie(secure: false).contains("Secure"))
        #expect(WebVisitor.read(cookieHeader: "a=b; paywire_visitor=\(profileId).\(credential)") == visitor)
    }

    @Test(arguments: ["paywire_visitor=", "paywire_visitor=web-zz.x", "paywire_visitor=someone.AAAA",
                      "paywire_visitor=web-0123456789abcdef0123456789abcdef.short", "other=web-0123456789abcdef0123456789abcdef.x"])
    func aCookieNotOfAVisitorsShapeNamesNoVisitor(header: String) {
        #expect(WebVisitor.read(cookieHeader: header) == nil)
    }

    @Test func aNewVisitorsProfileIsWebAnd32HexDigitsAndItsCsrfTokenIsBoundToItsCredential() {
        let id = WebVisitor.newProfileId(SystemRandom())
        #expect(id.hasPrefix("web-") && id.count == 36)
        #expect(WebVisitor.read(cookieHeader: "paywire_visitor=\(id).\(credential)")?.profileId == id)
        let other = String(repeating: "B", count: 42) + "Q"
        #expect(WebVisitor(profileId: id, credential: credential).csrf != WebVisitor(profileId: id, credential: other).csrf)
        #expect(WebVisitor(profileId: id, credential: credential).csrf != credential)
    }

    @Test func aSubscriptionsCheckoutCarriesThePaywallCellOnTheSessionAndOnTheSubscription() {
        let request = StripeCheckoutRequest(mode: "subscription", priceId: "price_m", profileId: profileId, placementId: "web",
                                            abTestName: "t", variationId: "v1", successURL: "https://p.test/web/web/success?session_id={CHECKOUT_SESSION_ID}",
                                            cancelURL: "https://p.test/web/web")
        let fields = Dictionary(request.fields, uniquingKeysWith: { first, _ in first })
        #expect(fields["line_items[0][price]"] == "price_m" && fields["client_reference_id"] == profileId)
        #expect(fields["metadata[paywire_web_paywall]"] == "1" && fields["metadata[paywire_variation_id]"] == "v1")
        #expect(fields["subscription_data[metadata][paywire_placement_id]"] == "web")
        #expect(fields["subscription_data[metadata][paywire_profile_id]"] == profileId)
        #expect(request.body.contains("success_url=https%3A%2F%2Fp.test%2Fweb%2Fweb%2Fsuccess%3Fsession_id%3D%7BCHECKOUT_SESSION_ID%7D"))
        #expect(request.body.contains("line_items%5B0%5D%5Bprice%5D=price_m"))
    }

    @Test func aOneTimeCheckoutHasNoSubscriptionDataAndAPlacementWithoutATestSendsNoTestName() {
        let request = StripeCheckoutRequest(mode: "payment", priceId: "price_l", profileId: profileId, placementId: "web", abTestName: "",
                                            variationId: "v1", successURL: "https://p.test/s", cancelURL: "https://p.test/c")
        #expect(!request.fields.contains { $0.0.hasPrefix("subscription_data") })
        #expect(!request.fields.contains { $0.0 == "metadata[paywire_ab_test_name]" }, "Stripe keeps no empty metadata value")
    }

    @Test func aPageOffersOnlyPlansStripeCanChargeForAndDropsASelectionLeftEmpty() throws {
        let configuration = try JSONValue(parsing: Array("""
            {"layout":"stack","sections":[{"type":"plan_selection","style":"radio_list","plans":[{"product_id":"a"},{"product_id":"b"}]},
             {"type":"card","sections":[{"type":"plan_selection","style":"pill_selector","plans":[{"product_id":"b"}]},{"type":"header","title":"x"}]},
             {"type":"toggle","label":"t","product_ids":["a","b"]},{"type":"toggle","label":"t","product_ids":["a","a"]}]}
            """.utf8))
        let sellable = WebPlans.sellable(configuration, prices: ["a": "price_a"])
        let sections = sellable["sections"]?.asArray ?? []
        #expect(sections.count == 3)
        #expect(sections.first?["plans"]?.asArray?.count == 1)
        #expect(sections.dropFirst().first?["sections"]?.asArray?.count == 1, "the card keeps its header, not its empty selection")
        #expect(sections.last?["product_ids"]?.asArray?.count == 2)
    }

    @Test func theLanguageIsTheQuerysElseAcceptLanguagesFirst() {
        #expect(WebLocale.preferred("fr-CA,fr;q=0.9,en;q=0.5", query: nil) == "fr-CA")
        #expect(WebLocale.preferred("fr-CA", query: "de") == "de")
        #expect(WebLocale.preferred("*", query: nil) == nil)
        #expect(WebLocale.preferred("<script>", query: "x y") == nil)
    }

    @Test func withoutAPublicURLTheBuyerIsSentBackToTheHostTheyReachedWhenItIsAHostName() {
        func web(_ publicURL: String?, _ secure: Bool) -> WebSetup {
            WebSetup(checkout: StripeCheckoutAPI(key: "sk_test", base: "http://127.0.0.1:1", timeoutMillis: 100),
                     prices: [:], publicURL: publicURL, secureCookies: secure)
        }
        #expect(web(nil, false).base(host: "127.0.0.1:8080") == "http://127.0.0.1:8080")
        #expect(web(nil, true).base(host: "pay.example.com") == "https://pay.example.com")
        #expect(web(nil, false).base(host: "evil.test/@x") == nil)
        #expect(web("https://pay.example.com", false).base(host: "other") == "https://pay.example.com")
    }
}

/// A web paywall's checkout names the visitor's profile and is still the app's to redeem.
@Suite struct WebPaywallCheckoutEventTests {
    func checkout(metadata: String) -> String {
        #"{"id":"evt_1","type":"checkout.session.completed","created":1700000000,"livemode":false,"data":{"object":"#
            + #"{"id":"cs_1","mode":"payment","payment_status":"paid","client_reference_id":"web-1","payment_intent":"pi_1","metadata":"#
            + metadata + "}}}"
    }

    @Test func aWebPaywallsCheckoutIsHeldForRedemptionByTheVisitorsProfile() throws {
        let effect = try StripeEvent.effect(Array(checkout(metadata: #"{"paywire_price_id":"price_a","paywire_web_paywall":"1"}"#).utf8),
                                            prices: ["price_a": "a"])
        let plan = StripeRules.plan(effect, links: [:])
        #expect(plan?.owner == "web-1")
        #expect(plan?.checkout?.redeemable == true)
    }

    @Test func aCheckoutWithoutATestNameIsAttributedToThePlacementsCellWithTheEmptyName() throws {
        let body = checkout(metadata: #"{"paywire_price_id":"price_a","paywire_placement_id":"web","paywire_variation_id":"v1"}"#)
        let effect = try StripeEvent.effect(Array(body.utf8), prices: ["price_a": "a"])
        #expect(effect.attribution?.abTestName == "" && effect.attribution?.variationId == "v1")
    }

    @Test func aCheckoutNamingItsProfileWithoutTheWebPaywallsMarkIsNotRedeemable() throws {
        let effect = try StripeEvent.effect(Array(checkout(metadata: #"{"paywire_price_id":"price_a"}"#).utf8), prices: ["price_a": "a"])
        #expect(StripeRules.plan(effect, links: [:])?.checkout?.redeemable == false)
    }
}

/// A web showing is kept as a device's exposure is, read back by the model's reader.
@Suite struct WebExposureTests {
    @Test func aWebExposureIsAPaywallShownRecordOfTheVisitorOnPlatformWeb() throws {
        let exposure = Exposure(placementId: "web", audienceName: "All", revision: 1, abTestName: "t", variationId: "v1", paywallId: "pw",
                                paywallName: "P", placementAudienceVersionId: "web-v1", holdout: false, forced: false)
        let record = try WebExposure.record(exposure, profileId: "web-1", eventId: "0b7c5a52-4d4c-4c1e-9a39-7a0b9c1d2e3f", at: 1_700_000_000_000)
        #expect(record.name == "paywall_shown" && record.profileId == "web-1")
        #expect(record.placementId == "web" && record.abTestName == "t" && record.variationId == "v1" && record.revision == 1)
        #expect(record.text.contains(#""platform":"web""#))
    }

    @Test func aBeaconsTokenIsTheVisitorsForOnePageVariationAndLanguage() {
        let token = WebExposure.token(credential: "c1", placementId: "web", variationId: "v1", locale: "en", page: "n1")
        #expect(WebExposure.token(credential: "c1", placementId: "web", variationId: "v1", locale: "en", page: "n1") == token)
        for other in [WebExposure.token(credential: "c2", placementId: "web", variationId: "v1", locale: "en", page: "n1"),
                      WebExposure.token(credential: "c1", placementId: "web2", variationId: "v1", locale: "en", page: "n1"),
                      WebExposure.token(credential: "c1", placementId: "web", variationId: "v2", locale: "en", page: "n1"),
                      WebExposure.token(credential: "c1", placementId: "web", variationId: "v1", locale: "fr", page: "n1"),
                      WebExposure.token(credential: "c1", placementId: "web", variationId: "v1", locale: "en", page: "n2")] {
            #expect(other != token)
        }
        let beacon = WebExposure.beacon(placementId: "a b", variationId: "v&1", locale: "", page: "n1", credential: "c1")
        #expect(beacon.url == "/web/a%20b/seen")
        #expect(beacon.body.hasPrefix("page=n1&variation_id=v%261&locale=&token="))
    }

    @Test func aPagesBeaconIsOneEventIdAUUIDsShape() {
        let id = WebExposure.eventId(beaconToken: "t1")
        #expect(RecordRules.isUUID(id) && id == WebExposure.eventId(beaconToken: "t1") && id != WebExposure.eventId(beaconToken: "t2"))
    }
}

/// A cell's profiles and purchasers split by where they were shown the paywall.
@Suite struct PlatformResultTests {
    @Test func theWebAndTheAppsAddUpToTheCellAndAProfileShownOnBothCountsOnTheWeb() {
        func sale(_ purchaser: String) -> Sale {
            Sale(abTestName: "t", variationId: "v", purchaser: purchaser, amount: nil, currency: nil, productType: .non_consumable,
                 purchasedAt: 0, expiresAt: nil, lifecycle: nil)
        }
        let split = Results.platforms(profiles: ["a", "b", "w1", "w2", "both"], web: ["w1", "w2", "both", "elsewhere"],
                                      sales: [sale("a"), sale("w1"), sale("both"), sale("w1")])
        #expect(split.app == PlatformResult(exposed: 2, purchasers: 1))
        #expect(split.web == PlatformResult(exposed: 3, purchasers: 2))
    }
}

/// The redemption link's QR code.
@Suite struct RedemptionQRTests {
    @Test func aShortLinkIsASmallestSymbolInsideAQuietZone() throws {
        let modules = try #require(RedemptionQR.modules("paywire://redeem?token=abc"))
        #expect(modules.width >= 21 && (modules.width - 17) % 4 == 0, "a QR symbol is 17 + 4 × version modules wide")
        #expect(modules.dark.count == modules.width * modules.width)
        // The three finder patterns' corners are dark.
        #expect(modules.dark[0] && modules.dark[modules.width - 1] && modules.dark[(modules.width - 1) * modules.width])
        let svg = try #require(RedemptionQR.svg("paywire://redeem?token=abc"))
        let full = modules.width + 2 * RedemptionQR.quietZone
        #expect(svg.contains("viewBox=\"0 0 \(full) \(full)\"") && !svg.contains("style="))
        #expect(svg.contains("M4 4h1v1h-1z"), "the first dark module sits after the quiet zone")
    }

    @Test func aTextNoSymbolCanHoldIsNoCode() {
        #expect(RedemptionQR.svg(String(repeating: "x", count: 8000)) == nil)
    }
}

/// What the web paywall's flags take.
@Suite struct WebPaywallOptionsTests {
    func problem(_ arguments: [String]) -> String? {
        do {
            _ = try Options.parse(["--bundle", "b.json", "--database", "sqlite:x"] + arguments, environment: [:])
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aStripeKeyOutsideDevelopmentNeedsThePublicAddressBuyersComeBackTo() {
        #expect(problem(["--stripe-api-key", "sk_test_x"])?.contains("--public-url") == true)
        #expect(problem(["--stripe-api-key", "sk_test_x", "--public-url", "https://pay.example.com"]) == nil)
        #expect(problem(["--public-url", "https://"]) != nil, "an address without a host")
        #expect(problem(["--public-url", "ftp://pay.example.com"]) != nil)
    }

    @Test(arguments: ["javascript:alert(1)//", "JavaScript://x", "data://text/html,x", "no-scheme"])
    func aRedemptionLinkBaseThatRunsCodeOrIsNoURLIsRefused(base: String) {
        #expect(problem(["--redemption-link-base", base]) != nil)
    }

    @Test func anAppsLinkOrAWebAddressIsARedemptionLinkBase() {
        #expect(problem(["--redemption-link-base", "myapp://redeem"]) == nil)
        #expect(problem(["--redemption-link-base", "https://example.com/r?src=mail"]) == nil)
    }
}
