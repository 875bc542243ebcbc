import Testing
import PaywireWeb

/// The page is safe to serve whatever the configuration says: text cannot become markup, only
/// web URLs are fetched, the CSP needs no exception, and bad input draws a page without trapping.
@Suite struct SafetyTests {
    @Test func hostileTextIsEscapedEverywhere() {
        let hostile = #"<script>alert('x')</script>\" onmouseover=\"x"#
        let html = Fixtures.page(#"""
        {"layout": "stack", "sections": [
          {"type": "header", "title": "\#(hostile)"}, {"type": "legal", "text": "\#(hostile)"},
          {"type": "plan_selection", "style": "pill_selector", "plans": [{"product_id": "\#(hostile)", "price": "\#(hostile)", "badge": "\#(hostile)"}]},
          {"type": "comparison_table", "columns": ["\#(hostile)"], "rows": [{"label": "\#(hostile)", "values": ["\#(hostile)"]}]}]}
        """#, .preview)
        #expect(Fixtures.count("<script", in: html) == 1, "only the page's own script")
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot; onmouseover=&quot;x"))
        #expect(!html.contains("\" onmouseover"))
        let title = PaywallPage.render(.null, options: Fixtures.options(.preview, title: "</title><script>"))
        #expect(title.contains("<title>&lt;/title&gt;&lt;script&gt;</title>"))
    }

    @Test func anAssetURLIsAPlaceholderAndNeverASource() {
        let html = Fixtures.page(Fixtures.allSections)
        #expect(!html.contains("src=\"asset:"))
        #expect(html.contains("<span class=\"pw-asset-label\" aria-hidden=\"true\">slide1</span>"))
        #expect(html.contains("role=\"img\" aria-label=\"slide2\""))
        for url in ["javascript:alert(1)", "data:image/png;base64,AAAA", "//evil.example/x.png", "file:///etc/passwd"] {
            let page = Fixtures.page(section: #"{"type": "image", "url": "\#(url)"}"#)
            #expect(!page.contains("<img"), "\(url) is not fetched")
        }
        let icon = Fixtures.page(section: #"{"type": "icon_grid", "items": [{"icon": "asset://crown", "label": "Crown"}]}"#)
        #expect(!icon.contains("src="))
        #expect(icon.contains("aria-hidden=\"true\">C</span>"))
    }

    @Test(arguments: ["live", "preview"]) func noTagCarriesAnInlineStyleOrAnEventHandler(_ mode: String) {
        let html = Fixtures.page(Fixtures.allSections, mode == "live" ? Fixtures.live : .preview)
        for tag in Fixtures.tags(html) {
            let lower = tag.lowercased()
            #expect(!lower.contains(" style="), "\(tag)")
            let words = lower.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            #expect(!words.contains { $0.hasPrefix("on") && $0.contains("=") }, "\(tag)")
        }
        #expect(Fixtures.count("<style", in: html) == 1)
        #expect(Fixtures.count("<script", in: html) == 1)
        #expect(html.contains("<style nonce=\"n0nce\">"))
        #expect(html.contains("<script nonce=\"n0nce\">"))
    }

    @Test func sectionsNestedDeeperThanFourAreNotDrawn() {
        var section = #"{"type": "header", "title": "Too deep"}"#
        for _ in 0..<5 { section = #"{"type": "card", "sections": [\#(section)]}"# }
        let preview = Fixtures.page(section: section, .preview)
        #expect(!preview.contains("Too deep"))
        #expect(preview.contains("Sections nested deeper than 4 are not drawn."))
        #expect(Fixtures.count("<div class=\"pw-card\">", in: preview) == 4)
        let live = Fixtures.page(section: section)
        #expect(!live.contains("Too deep"))
        #expect(!live.contains(Fixtures.note))

        var allowed = #"{"type": "legal", "text": "Deep enough"}"#
        for _ in 0..<3 { allowed = #"{"type": "carousel", "sections": [\#(allowed)]}"# }
        #expect(Fixtures.page(section: allowed).contains("Deep enough"), "three containers deep is allowed")
    }

    @Test(arguments: [
        #"{"layout": "stack", "sections": {"type": "header"}}"#,
        #"{"layout": 7, "sections": "none"}"#,
        #"[1, 2, 3]"#,
        #"null"#,
        #"{"sections": [1, "x", null, [], {"type": 5}, {"type": "header", "title": 5, "subtitle": ["x"]}]}"#,
        #"{"sections": [{"type": "plan_selection", "style": 3, "plans": [{"price": "$1"}, 4, {"product_id": 7}]}]}"#,
        #"{"sections": [{"type": "plan_selection", "plans": "all"}, {"type": "toggle", "product_ids": ["one"]}, {"type": "toggle"}]}"#,
        #"{"sections": [{"type": "features_list", "items": "x"}, {"type": "social_proof", "rating": "high"}, {"type": "spacer", "height": -1e999}]}"#,
        #"{"sections": [{"type": "image", "url": 7, "aspect_ratio": 0}, {"type": "image", "url": "https://x", "aspect_ratio": 1e308}]}"#,
        #"{"sections": [{"type": "countdown", "ends_at": "9999-12-31T23:59:59.999Z"}, {"type": "countdown", "ends_at": "0000-01-01T00:00:00Z"}, {"type": "countdown", "ends_at": "2024-13-45T99:99:99Z"}]}"#,
        #"{"sections": [{"type": "countdown", "ends_at": "soon"}, {"type": "comparison_table", "columns": [1], "rows": [{"values": [null, 2]}, 5]}]}"#,
        #"{"sections": [{"type": "card"}, {"type": "carousel", "sections": 3}, {"type": "sticky_footer", "sections": [{}]}]}"#,
        #"{"sections": [{"type": "reviews_carousel", "reviews": [{"text": "ok", "rating": 99}]}, {"type": "timeline", "steps": [{}]}]}"#,
    ]) func malformedInputRendersAPageWithoutTrapping(_ json: String) {
        for mode in [Fixtures.live, .preview] {
            let html = Fixtures.page(json, mode)
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            #expect(html.hasSuffix("</html>\n"))
            #expect(Fixtures.count("<h1", in: html) == 1)
        }
    }

    @Test func aPlanWithoutAProductIdIsLeftOutAndTheOthersStillChoose() {
        let section = #"{"type": "plan_selection", "style": "vertical_stack", "plans": [{"price": "$1"}, {"product_id": "b", "price": "$2"}]}"#
        let live = Fixtures.page(section: section)
        #expect(!live.contains("$1"))
        #expect(live.contains("value=\"b\" checked"))
        #expect(Fixtures.page(section: section, .preview).contains("A plan without a product_id is not drawn."))
    }
}
