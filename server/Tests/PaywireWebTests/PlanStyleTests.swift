import Testing
import PaywireWeb

/// Every plan style draws the same radio group: every plan's price, one checked radio.
@Suite struct PlanStyleTests {
    static let plans = #"""
    [{"product_id": "weekly", "price": "$2.99", "period": "1 week", "trial_label": null, "save_percentage": null},
     {"product_id": "annual", "badge": "Best value", "highlighted": true, "price": "$59.99", "period": "1 year", "trial_label": "1 week free", "save_percentage": 61},
     {"product_id": "lifetime", "price": "$149.00", "period": null, "trial_label": null, "save_percentage": null}]
    """#

    static func page(style: String, plans: String = plans, _ mode: PaywallPage.Mode = Fixtures.live) -> String {
        Fixtures.page(section: #"{"type": "plan_selection", "style": "\#(style)", "plans": \#(plans)}"#, mode)
    }

    @Test(arguments: PaywallPage.planStyles) func everyPlanStyleRendersEveryPlansPriceAndACheckedRadio(_ style: String) {
        let html = Self.page(style: style)
        #expect(html.contains("<fieldset class=\"pw-plans pw-plans-\(style)\"><legend"))
        for price in ["$2.99", "$59.99", "$149.00"] { #expect(html.contains(price), "\(style) shows \(price)") }
        #expect(Fixtures.count("type=\"radio\" name=\"product_id\"", in: html) == 3)
        #expect(Fixtures.checkedRadios(html) == 1)
        #expect(html.contains("value=\"annual\" checked"), "the highlighted plan starts selected")
        #expect(Fixtures.count("<label class=\"pw-plan", in: html) == 3, "every radio has its label")
        #expect(!html.contains(Fixtures.note))
    }

    @Test func withoutAHighlightedPlanTheFirstPlanIsChecked() {
        let html = Self.page(style: "vertical_stack", plans: #"[{"product_id": "a", "price": "$1"}, {"product_id": "b", "price": "$2"}]"#)
        #expect(html.contains("value=\"a\" checked"))
        #expect(Fixtures.checkedRadios(html) == 1)
    }

    @Test func featuredHighlightDrawsTheHighlightedPlanFirst() {
        let html = Self.page(style: "featured_highlight")
        guard let annual = html.firstRange(of: "value=\"annual\""), let weekly = html.firstRange(of: "value=\"weekly\"") else {
            Issue.record("both plans are drawn")
            return
        }
        #expect(annual.lowerBound < weekly.lowerBound)
    }

    @Test func aPlanWithoutAPeriodIsOneTimeAndWithoutASavingShowsNone() {
        let html = Self.page(style: "radio_list")
        #expect(html.contains("$149.00</span> <span class=\"pw-plan-period\">one-time</span>"))
        #expect(Fixtures.count("Save ", in: html) == 1)
        #expect(html.contains("Save 61%"))
    }

    @Test func theSelectedLookIsCSSCheckedSoItNeedsNoScript() {
        let html = Self.page(style: "horizontal_cards")
        #expect(html.contains(".pw-radio:checked+.pw-plan-body{"))
        #expect(html.contains(".pw-radio:focus-visible+.pw-plan-body{outline:"))
    }

    @Test func aPageWithSeveralSelectionsChecksOnlyOneRadio() {
        let html = Fixtures.page(#"{"layout": "stack", "sections": [{"type": "plan_selection", "style": "pill_selector", "plans": [{"product_id": "a"}]}, {"type": "plan_selection", "style": "accordion", "plans": [{"product_id": "a"}, {"product_id": "b", "highlighted": true}]}]}"#)
        #expect(Fixtures.checkedRadios(html) == 1)
        #expect(html.contains("value=\"a\" checked"))
    }

    @Test func anUnknownStyleIsDrawnAsAListWithANoteInPreview() {
        let preview = Self.page(style: "spiral", .preview)
        #expect(preview.contains("pw-plans-vertical_stack"))
        #expect(preview.contains("Plan style &#39;spiral&#39; is not drawn"))
        #expect(!Self.page(style: "spiral").contains(Fixtures.note))
    }
}
