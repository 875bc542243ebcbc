import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

@Suite struct PrefetchTests {
    private func builder(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func assetURLsFollowDocumentOrderAndAppearOnce() throws {
        let config = try builder("""
        {"layout":"stack","sections":[
          {"type":"image","url":"https://cdn/a.png"},
          {"type":"card","sections":[{"type":"image","url":"asset://b.svg"},{"type":"image","url":"https://cdn/a.png"}]},
          {"type":"features_list","items":[{"text":"x","icon":"star"},{"text":"y","icon":"http://cdn/c.png"}]},
          {"type":"icon_grid","items":[{"icon":"https://cdn/d.png","label":"d"}]}
        ]}
        """)
        #expect(PaywallBuilder.assetURLs(config) == ["https://cdn/a.png", "asset://b.svg", "http://cdn/c.png", "https://cdn/d.png"])
    }

    @Test func linksAndIconNamesAreNotAssets() throws {
        // A url on a section that is not an image is a link the user opens; an icon name is
        // drawn by the host; neither is a download.
        let config = try builder("""
        {"layout":"stack","sections":[{"type":"cta_button","text":"Go","action":"open_url","url":"https://site/terms"},
          {"type":"features_list","items":[{"text":"x","icon":"checkmark"}]},{"type":"image","url":"ftp://cdn/x.png"}]}
        """)
        #expect(PaywallBuilder.assetURLs(config).isEmpty)
    }

    @Test func brokenOrMissingConfigurationsYieldNothingAndNeverTrap() throws {
        #expect(PaywallBuilder.assetURLs(nil).isEmpty)
        #expect(PaywallBuilder.assetURLs(.string("x")).isEmpty)
        #expect(PaywallBuilder.assetURLs(try builder(#"{"sections":[1,{"url":"https://no-type"},{"type":"image","url":7}]}"#)).isEmpty)
        // Deeper than the checker allows: the walk stops at the same bound.
        var nested = #"{"type":"image","url":"https://deep/x.png"}"#
        for _ in 0..<10 { nested = #"{"type":"card","sections":["# + nested + "]}" }
        #expect(PaywallBuilder.assetURLs(try builder(#"{"layout":"stack","sections":["# + nested + "]}")).isEmpty)
    }

    @Test func oneFailingPlacementIsItsOwnEntryAndTheRunAnswersOnceWhenAllAreIn() throws {
        var answers: [CallResponse] = []
        let run = PrefetchRun(placementIds: ["a", "b"]) { answers.append($0) }
        run.record(1, .failed(WireError(.notFound, "none")))
        #expect(answers.isEmpty)
        let text = #"{"placement":{"developer_id":"a"},"variation_id":"v","products":[],"builder":{"layout":"stack","sections":[{"type":"image","url":"https://x/1.png"}]}}"#
        let reference = try PaywallReference(try Fields(try JSONParser.parse(text), path: "paywall"))
        let paywall = ServedPlacement.paywall(ServedPaywall(paywall: Array(text.utf8), envelope: CallResponse.success(Array(text.utf8)).envelope,
                                                            reference: reference, rules: PresentationRules(), validUntil: .max))
        run.record(0, PlacementAnswer(paywall, .cache, WireError(.timeout, "slow")))
        run.record(0, PlacementAnswer(paywall, .backend))  // a second answer for the same placement is ignored
        #expect(answers.count == 1)
        guard case .object(let envelope)? = try? JSONParser.parse(answers[0].envelope), case .object(let result)? = envelope["success"],
              case .array(let placements)? = result["placements"], placements.count == 2,
              case .object(let first) = placements[0], case .object(let second) = placements[1] else {
            Issue.record("unexpected answer"); return
        }
        #expect(first["source"] == .string("cache"))
        #expect(first["asset_urls"] == .array([.string("https://x/1.png")]))
        if case .object(let error)? = first["error"] { #expect(error["code"] == .string("timeout")) } else { Issue.record("no error") }
        #expect(second["source"] == .string("none"))
        #expect(result["asset_urls"] == .array([.string("https://x/1.png")]))
    }

    @Test func prefetchWithoutATransportAnswersFromTheBundleAtOnce() throws {
        let client = try Client(config: try ClientConfig.parse(Array(#"{"profile_id":"p","fallback":{"path":"tests/conformance/bundles/basic.json"}}"#.utf8)),
                                sink: RecordingSink(), scheduler: ManualScheduler(), clock: ManualClock(wall: 1_700_000_000_000), random: CountingRandom(), files: ReadingFileSystem())
        let response = client.call(method: "prefetch", params: Array(#"{"placement_ids":["onboarding","absent"]}"#.utf8))
        #expect(response.status == .ok)
        let text = String(decoding: response.envelope, as: UTF8.self)
        #expect(text.contains(#""placement_id":"onboarding","source":"fallback""#))
        #expect(text.contains(#""placement_id":"absent","source":"none""#))
    }
}
