import Testing
@testable import PaywireModel
@testable import PaywireWire

@Suite struct CatalogTests {
    private func hex(_ bytes: [UInt8]) -> String {
        Hex.encode(bytes)
    }

    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("The quick brown fox jumps over the lazy dog", "9e107d9d372bb6826bd81d3542a419d6"),
        (String(repeating: "a", count: 1000), "cabe45dcc9ae5b66ba86600cca6b8ba8"),
    ])
    func md5MatchesTheRFCVectors(_ input: String, _ digest: String) {
        #expect(hex(MD5.digest(Array(input.utf8))) == digest)
    }

    @Test func bucketReadsTheLastEightBytesBigEndianModulo100() {
        // md5("onb-v7-profile-000") computed independently; its last 8 bytes mod 100 is 92.
        #expect(VariationChooser.bucket(placementAudienceVersionId: "onb-v7", profileId: "profile-000") == 92)
    }

    @Test func chooserSortsByWeightThenIdAndWalksCumulativeWeights() {
        func variation(_ id: String, _ weight: Int) -> Variation {
            Variation(variationId: id, paywallId: id, paywallName: id, weight: weight, products: [], remoteConfigs: [])
        }
        let variations = [variation("big", 50), variation("small", 20), variation("medium", 30)]
        // buckets: small [0,20), medium [20,50), big [50,100)
        #expect(VariationChooser.choose(variations, placementAudienceVersionId: "three-way-v1", profileId: "profile-011")?.variationId == "small")
        #expect(VariationChooser.choose(variations, placementAudienceVersionId: "three-way-v1", profileId: "profile-010")?.variationId == "medium")
        #expect(VariationChooser.choose(variations, placementAudienceVersionId: "three-way-v1", profileId: "profile-000")?.variationId == "big")
        #expect(VariationChooser.choose([Variation](), placementAudienceVersionId: "x", profileId: "y") == nil)
    }

    @Test(arguments: [("en-US", "en"), ("FR_ca", "fr"), ("", "en"), (nil, "en"), ("-de", "de"), ("x", "en"), ("zh-Hant-TW", "zh")])
    func languageIsTheLowercasedFirstSubtagOrEnWhenItIsNoLanguage(_ locale: String?, _ language: String) {
        #expect(LocaleMatch.language(of: locale) == language)
    }

    @Test func bundleIndexesPlacementsWithoutParsingThem() throws {
        // The broken placement is only an error when it is asked for.
        let bundle = try FallbackBundle.load(Array(#"""
        {"format_version":1,"response_created_at":3,"placements":{"good":{"placement_audience_version_id":"g","variations":[{"variation_id":"v","paywall_id":"p","weight":100,"products":["a"]}]},"bad":{"variations":"nope"}}}
        """#.utf8))
        #expect(Set(bundle.paywalls.ids) == ["good", "bad"])
        #expect(try bundle.paywalls.placement("good")?.audiences.first?.variations.first?.productIds == ["a"])
        #expect(try bundle.paywalls.placement("missing") == nil)
        #expect(throws: WireError.self) { try bundle.paywalls.placement("bad") }
    }

    @Test(arguments: [(2, "library", "update Paywire"), (0, "file", "export the fallback file again")])
    func bundleOfAnotherFormatVersionSaysWhichSideIsOlderAndWhatToDo(_ version: Int, _ older: String, _ remedy: String) {
        do {
            _ = try FallbackBundle.load(Array(#"{"format_version":\#(version),"response_created_at":1,"placements":{}}"#.utf8))
            Issue.record("a version \(version) bundle was accepted")
        } catch {
            #expect(error.code == .wrongFallbackVersion)
            #expect(error.message.contains(remedy))
            #expect(error.details["older"] == .string(older) && error.details["format"] == .string("paywire"))
        }
    }
}

@Suite struct ISODateTests {
    @Test(arguments: [
        (0, "1970-01-01T00:00:00.000Z"), (1_705_314_600_000, "2024-01-15T10:30:00.000Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"), (-1, "1969-12-31T23:59:59.999Z"),
    ])
    func formatsAndParsesUTCWithMilliseconds(_ milliseconds: Int, _ text: String) {
        #expect(ISODate.format(milliseconds: milliseconds) == text)
        #expect(ISODate.parse(text) == milliseconds)
    }

    @Test func parseRefusesImpossibleDates() {
        for text in ["2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00", "x"] {
            #expect(ISODate.parse(text) == nil)
        }
        #expect(ISODate.parse("2024-01-15T10:30:00Z") == 1_705_314_600_000)
    }

    @Test func addingMonthsClampsToTheMonthsLength() {
        let january31 = ISODate.parse("2024-01-31T12:00:00.000Z") ?? 0
        #expect(ISODate.format(milliseconds: ISODate.adding(months: 1, to: january31)) == "2024-02-29T12:00:00.000Z")
        #expect(ISODate.format(milliseconds: ISODate.adding(months: 13, to: january31)) == "2025-02-28T12:00:00.000Z")
        let january15 = ISODate.parse("2024-01-15T10:30:00.000Z") ?? 0
        #expect(ISODate.format(milliseconds: ISODate.adding(months: 1, to: january15)) == "2024-02-15T10:30:00.000Z")
        #expect(ISODate.format(milliseconds: ISODate.adding(months: 12, to: january15)) == "2025-01-15T10:30:00.000Z")
    }
}
