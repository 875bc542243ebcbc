import Testing
@testable import PaywireModel
@testable import PaywireWire

@Suite struct FallbackBundleTests {
    private let bundleText = #"""
        {"format_version": 1, "response_created_at": 42, "placements": {"main": {"audience_name": "All Users",
        "revision": 1, "ab_test_name": "t", "placement_audience_version_id": "v1", "variations": [{"variation_id": "a",
        "paywall_id": "p", "paywall_name": "P", "weight": 100, "products": ["monthly"]}]}}}
        """#

    @Test func inlineParamsAreIndexedInPlaceAndServeTheSamePlacement() throws {
        let params = Array(#"{"bundle": \#(bundleText)}"#.utf8)
        let inline = try #require(try FallbackBundle.loadInline(params: params))
        let loaded = try FallbackBundle.load(Array(bundleText.utf8))
        #expect(inline.responseCreatedAt == 42)
        #expect(Array(inline.paywalls.ids) == Array(loaded.paywalls.ids))
        let placement = try #require(try inline.paywalls.placement("main"))
        let reference = try #require(try loaded.paywalls.placement("main"))
        #expect(placement.audiences.count == reference.audiences.count)
    }

    @Test(arguments: [
        #"{"path": "b.json"}"#,                        // another source
        #"{"bundle": {}, "path": "b.json"}"#,          // both: the general path refuses it
        #"{"path": "b.json", "bundle": {}}"#,
        #"{"bundle": [1]}"#,                           // not an object
        #"{"bundle": {"format_version": 1,}}"#,        // a syntax error: reported by the general path
        #"{"bundle": {}} trailing"#,
        #"[{"bundle": {}}]"#,
    ])
    func otherFormsAreLeftToTheGeneralPath(_ text: String) throws {
        #expect(try FallbackBundle.loadInline(params: Array(text.utf8)) == nil)
    }

    @Test func inlineBundleErrorsAreTheBundleLoadErrors() {
        #expect(throws: WireError.self) {
            _ = try FallbackBundle.loadInline(params: Array(#"{"bundle": {"format_version": 2, "response_created_at": 1, "placements": {}}}"#.utf8))
        }
    }
    @Test func aDefaultLocaleThatIsNotALanguageTagIsRefusedWithItsPath() throws {
        let text = #"""
            {"format_version": 1, "response_created_at": 42, "placements": {"main": {"default_locale": "!!",
            "audience_name": "All Users", "revision": 1, "ab_test_name": "t", "placement_audience_version_id": "v1",
            "variations": [{"variation_id": "a", "paywall_id": "p", "paywall_name": "P", "weight": 100, "products": []}]}}}
            """#
        let bundle = try FallbackBundle.load(Array(text.utf8))
        do {
            _ = try bundle.paywalls.placement("main")
            Issue.record("a placement with default_locale \"!!\" was accepted")
        } catch {
            #expect(error.code == .invalidFallback)
            #expect(error.details["field"] == .string("placements.main.default_locale"))
        }
    }
}
