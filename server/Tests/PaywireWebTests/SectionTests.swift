import Testing
import PaywireWeb

/// Each section type on its own: its fields reach the page.
@Suite struct SectionTests {
    /// One section and what its page must show.
    struct Case: Sendable, CustomTestStringConvertible {
        let type: String
        let json: String
        let shows: [String]
        var testDescription: String { type }
    }

    static let cases: [Case] = [
        Case(type: "header", json: #"{"type": "header", "title": "Tom & Jerry's <b>", "subtitle": "Sub"}"#,
             shows: ["<h1 class=\"pw-title\">Tom &amp; Jerry&#39;s &lt;b&gt;</h1>", "Sub</p>"]),
        Case(type: "features_list", json: #"{"type": "features_list", "items": [{"text": "No ads", "icon": "ban"}, {"text": "Offline"}]}"#,
             shows: ["No ads", "Offline", ">B</span>", "pw-icon-mark"]),
        Case(type: "plan_selection", json: #"{"type": "plan_selection", "style": "radio_list", "plans": [{"product_id": "m", "price": "$9.99", "period": "1 month", "badge": "Hot", "trial_label": "3 days free", "save_percentage": 20}]}"#,
             shows: ["value=\"m\"", "$9.99", "/ 1 month", "Hot", "3 days free", "Save 20%"]),
        Case(type: "cta_button", json: #"{"type": "cta_button", "text": "Go on", "action": "purchase"}"#,
             shows: ["<button class=\"pw-cta\" type=\"submit\">Go on</button>"]),
        Case(type: "social_proof", json: #"{"type": "social_proof", "text": "Loved", "rating": 4.8}"#,
             shows: ["Loved", "★★★★★", "4.8<span class=\"pw-visually-hidden\"> out of 5"]),
        Case(type: "guarantee", json: #"{"type": "guarantee", "text": "Money back"}"#, shows: ["Money back"]),
        Case(type: "image", json: #"{"type": "image", "url": "https://cdn.example.com/a.png", "aspect_ratio": 1.5}"#,
             shows: ["src=\"https://cdn.example.com/a.png\"", "width=\"1500\" height=\"1000\""]),
        Case(type: "spacer", json: #"{"type": "spacer", "height": 24}"#, shows: ["class=\"pw-spacer\" width=\"1\" height=\"24\""]),
        Case(type: "testimonial", json: #"{"type": "testimonial", "quote": "Changed my mornings", "author": "Sam"}"#,
             shows: ["<p>Changed my mornings</p>", ">Sam</figcaption>"]),
        Case(type: "countdown", json: #"{"type": "countdown", "ends_at": "2024-02-01T00:00:00Z", "label": "Ends in"}"#,
             shows: ["Ends in", "datetime=\"2024-02-01T00:00:00.000Z\"", "data-pw-ends=\"1706745600000\"", "2024-02-01 00:00 UTC</time>"]),
        Case(type: "legal", json: #"{"type": "legal", "text": "Renews automatically."}"#, shows: ["Renews automatically."]),
        Case(type: "divider", json: #"{"type": "divider"}"#, shows: ["<hr class=\"pw-divider\">"]),
        Case(type: "sticky_footer", json: #"{"type": "sticky_footer", "sections": [{"type": "legal", "text": "Small"}]}"#,
             shows: ["<div class=\"pw-sticky\"><p class=\"pw-legal\">Small</p></div>"]),
        Case(type: "card", json: #"{"type": "card", "sections": [{"type": "legal", "text": "Carded"}]}"#,
             shows: ["<div class=\"pw-card\"><p class=\"pw-legal\">Carded</p></div>"]),
        Case(type: "carousel", json: #"{"type": "carousel", "sections": [{"type": "legal", "text": "One"}, {"type": "legal", "text": "Two"}]}"#,
             shows: ["<li class=\"pw-slide\"><p class=\"pw-legal\">One</p></li><li class=\"pw-slide\"><p class=\"pw-legal\">Two</p></li>", "tabindex=\"0\""]),
        Case(type: "timeline", json: #"{"type": "timeline", "steps": [{"title": "Today", "description": "Full access"}, {"title": "Day 7"}]}"#,
             shows: ["<ol class=\"pw-timeline\">", "Today", "Full access", "Day 7"]),
        Case(type: "icon_grid", json: #"{"type": "icon_grid", "items": [{"icon": "star", "label": "Pro tools"}]}"#,
             shows: [">S</span>", "Pro tools"]),
        Case(type: "comparison_table", json: #"{"type": "comparison_table", "columns": ["Free", "Premium"], "rows": [{"label": "Ads", "values": ["Yes", "No"]}, {"label": "Sync", "values": ["No"]}]}"#,
             shows: ["<th scope=\"col\">Premium</th>", "<th scope=\"row\">Ads</th><td>Yes</td><td>No</td>", "<th scope=\"row\">Sync</th><td>No</td><td></td>"]),
        Case(type: "promo_input", json: #"{"type": "promo_input", "placeholder": "Your code"}"#,
             shows: ["<p class=\"pw-promo\">Have a promo code? Enter it on the payment page.</p>"]),
        Case(type: "toggle", json: #"{"type": "toggle", "label": "Free trial", "product_ids": ["a", "b"]}"#,
             shows: ["<legend class=\"pw-toggle-legend\">Free trial</legend>", "value=\"a\" checked", "value=\"b\""]),
        Case(type: "reviews_carousel", json: #"{"type": "reviews_carousel", "reviews": [{"author": "Ann", "text": "Great", "rating": 5}]}"#,
             shows: ["Great", ">Ann</figcaption>", "5<span class=\"pw-visually-hidden\"> out of 5"]),
    ]

    @Test func theCasesCoverEverySectionTypeThePageDraws() {
        #expect(Self.cases.map(\.type) == PaywallPage.sectionTypes)
    }

    @Test(arguments: cases) func everySectionTypeRendersItsFields(_ test: Case) {
        let html = Fixtures.page(section: test.json)
        for fragment in test.shows {
            #expect(html.contains(fragment), "\(test.type) shows \(fragment)")
        }
        #expect(!html.contains(Fixtures.note))
    }

    @Test func theFirstHeaderIsTheOneH1AndLaterHeadersAreH2() {
        let html = Fixtures.page(Fixtures.allSections)
        #expect(Fixtures.count("<h1", in: html) == 1)
        #expect(html.contains("<h1 class=\"pw-title\">Go Premium</h1>"))
        #expect(html.contains("<h2 class=\"pw-title\">Inside a card</h2>"))
    }

    @Test func aPageWithoutAHeaderStillHasOneH1FromItsTitle() {
        let html = Fixtures.page(section: #"{"type": "legal", "text": "x"}"#)
        #expect(Fixtures.count("<h1", in: html) == 1)
        #expect(html.contains("<h1 class=\"pw-visually-hidden\">Go Premium</h1>"))
    }

    @Test func aStickyFooterAtTheTopLevelIsDrawnAfterTheOtherSections() {
        let html = Fixtures.page(Fixtures.allSections)
        guard let footer = html.firstRange(of: "pw-sticky\">"), let reviews = html.firstRange(of: "pw-reviews") else {
            Issue.record("the footer and the reviews are drawn")
            return
        }
        #expect(reviews.lowerBound < footer.lowerBound)
    }

    @Test(arguments: ["stack", "grid", "carousel"]) func theLayoutIsAClassOnTheMainContainer(_ layout: String) {
        let html = Fixtures.page(#"{"layout": "\#(layout)", "sections": [{"type": "header", "title": "T"}]}"#)
        #expect(html.contains("<main class=\"pw-page pw-layout-\(layout)\">"))
    }

    @Test func anUnknownLayoutIsDrawnAsAStack() {
        #expect(Fixtures.page(#"{"layout": "spiral", "sections": []}"#).contains("pw-layout-stack"))
    }
}
