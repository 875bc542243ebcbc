import Testing
import PaywireWeb

/// Live pages sell through one form; previews post nothing and say what they leave out.
@Suite struct ModeTests {
    @Test func aLivePageIsOneFormPostingToTheCheckoutWithItsHiddenFields() {
        let html = Fixtures.page(Fixtures.allSections)
        #expect(Fixtures.count("<form", in: html) == 1)
        #expect(html.contains("<form class=\"pw-form\" method=\"post\" action=\"/web/checkout?p=built&amp;v=b1\">"))
        #expect(html.contains("<input type=\"hidden\" name=\"paywall_id\" value=\"pw-built\">"))
        #expect(html.contains("<input type=\"hidden\" name=\"csrf\" value=\"t&quot;&lt;ok&gt;\">"))
        #expect(html.contains("<button class=\"pw-cta\" type=\"submit\">Continue</button>"))
        #expect(html.contains("<button class=\"pw-cta\" type=\"submit\">Start</button>"), "a CTA without an action buys")
        #expect(!html.contains("name=\"promo_code\""), "Stripe's payment page takes the code: no field nothing reads")
    }

    @Test func aPageWithABeaconCarriesItEscapedAndTheScriptThatSendsItOnceDrawn() {
        var options = Fixtures.options(Fixtures.live)
        options.seen = PaywallPage.Beacon(url: "/web/p\"1/seen", body: "page=n&token=a<b")
        let html = PaywallPage.render(Fixtures.json(Fixtures.allSections), options: options)
        #expect(html.contains(#"<div hidden data-pw-seen data-pw-seen-url="/web/p&quot;1/seen" data-pw-seen-body="page=n&amp;token=a&lt;b"></div>"#))
        #expect(Fixtures.count("data-pw-seen-url=\"", in: html) == 1 && html.contains("requestAnimationFrame"))
        let without = Fixtures.page(Fixtures.allSections)
        #expect(!without.contains("data-pw-seen") && !without.contains("data-pw-seen-url"), "no beacon unless given: a preview counts nothing")
        let notice = PaywallPage.notice(title: "Nothing", message: "m", link: nil, refresh: nil, nonce: "n",
                                        seen: PaywallPage.Beacon(url: "/web/p/seen", body: "page=n"))
        #expect(notice.contains("data-pw-seen-url=\"/web/p/seen\"") && notice.contains("<script nonce=\"n\">"))
    }

    @Test func aPreviewHasNoFormAndInertButtons() {
        let html = Fixtures.page(Fixtures.allSections, .preview)
        #expect(!html.contains("<form"))
        #expect(!html.contains("type=\"submit\""))
        #expect(html.contains("<button class=\"pw-cta\" type=\"button\" disabled>Continue</button>"))
        #expect(html.contains("name=\"promo_code\""), "a preview draws the promo field as the app would")
    }

    @Test(arguments: ["restore", "close"]) func restoreAndCloseButtonsAreNotDrawnOnTheWeb(_ action: String) {
        for mode in [Fixtures.live, .preview] {
            let html = Fixtures.page(section: #"{"type": "cta_button", "text": "Do it", "action": "\#(action)"}"#, mode)
            #expect(!html.contains("Do it"))
            #expect(html.contains("<!-- a restore or close button is not drawn"))
        }
    }

    @Test func anOpenURLButtonIsALinkLiveAndInertInPreview() {
        let section = #"{"type": "cta_button", "text": "Terms", "action": "open_url", "url": "https://example.com/terms"}"#
        #expect(Fixtures.page(section: section).contains("<a class=\"pw-cta pw-cta-link\" href=\"https://example.com/terms\""))
        #expect(Fixtures.page(section: section, .preview).contains("type=\"button\" disabled>Terms</button>"))
        let script = #"{"type": "cta_button", "text": "Terms", "action": "open_url", "url": "javascript:alert(1)"}"#
        #expect(!Fixtures.page(section: script).contains("javascript:"))
    }

    @Test func anUnknownSectionIsANoteInPreviewAndAbsentLive() {
        let section = #"{"type": "hologram", "text": "Shiny"}"#
        let preview = Fixtures.page(section: section, .preview)
        #expect(preview.contains("<div class=\"pw-unknown\" role=\"note\">Section type &#39;hologram&#39; is not drawn.</div>"))
        let live = Fixtures.page(section: section)
        #expect(!live.contains(Fixtures.note))
        #expect(!live.contains("hologram"))
        #expect(!live.contains("Shiny"))
        #expect(live.contains("<!-- a section type this page does not know is left out -->"))
    }

    @Test func aToggleIsTwoLabelledRadiosOfTheProductGroupWithTheirPrices() {
        let html = Fixtures.page(Fixtures.allSections)
        #expect(html.contains("<fieldset class=\"pw-toggle\" data-pw-toggle>"))
        #expect(html.contains("<label class=\"pw-toggle-option\"><input class=\"pw-radio\" type=\"radio\" name=\"product_id\" value=\"premium_annual\"><span>On</span> <span class=\"pw-toggle-price\">$59.99 / 1 year</span></label>"))
        #expect(html.contains("value=\"premium_monthly\"><span>Off</span> <span class=\"pw-toggle-price\">$9.99 / 1 month</span>"))
        #expect(Fixtures.checkedRadios(html) == 1, "the plan selection's radio holds the one check")
    }

    @Test func theScriptTicksTheCountdownAndMakesTheToggleASwitch() {
        let html = Fixtures.page(Fixtures.allSections)
        #expect(html.contains("time[data-pw-ends]"))
        #expect(html.contains("setAttribute(\"role\", \"switch\")"))
        #expect(html.contains("prefers-reduced-motion: reduce"))
    }
}
