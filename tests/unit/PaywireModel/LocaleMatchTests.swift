import Testing
@testable import PaywireModel
@testable import PaywireWire

/// The BCP 47 lookup chain and the choice of a localization, on their own.
@Suite struct LocaleMatchTests {
    @Test func aRegionImpliesItsScriptAndTheChainStopsBeforeALanguageOfAnotherScript() {
        #expect(LanguageTag("zh-TW")?.lookupChain == ["zh-tw", "zh-hant-tw", "zh-hant"])
        #expect(LanguageTag("zh_Hant")?.lookupChain == ["zh-hant"])
        #expect(LanguageTag("zh-CN")?.lookupChain == ["zh-cn", "zh-hans-cn", "zh-hans", "zh"])
        #expect(LanguageTag("zh")?.lookupChain == ["zh", "zh-hans"])
        #expect(LanguageTag("sr-Latn")?.lookupChain == ["sr-latn"])
        #expect(LanguageTag("sr")?.lookupChain == ["sr", "sr-cyrl"])
    }

    @Test func aLanguageWithOneScriptLosesItsRegionThenAnythingAfterIt() {
        #expect(LanguageTag("PT_br")?.lookupChain == ["pt-br", "pt"])
        #expect(LanguageTag("de-DE-1996")?.lookupChain == ["de-de-1996", "de-de", "de"])
    }

    @Test func somethingThatIsNotALanguageTagIsNone() {
        #expect(LanguageTag("") == nil)
        #expect(LanguageTag("1234") == nil)
        #expect(LanguageTag("x") == nil)
        #expect(LocaleMatch.language(of: "!!") == "en")
    }

    static let tags = ["en", "zh", "zh-Hant-HK", "pt-PT", "fr"]

    func pick(_ locale: String?, default placementDefault: String? = nil, in tags: [String] = tags) -> String? {
        LocaleMatch.pick(tags, locale: locale, placementDefault: placementDefault) { $0 }
    }

    @Test func aSiblingInTheSameScriptAnswersWhenTheChainDoesNot() {
        #expect(pick("zh-TW") == "zh-Hant-HK")
        #expect(pick("pt-BR") == "pt-PT")
        #expect(pick("en-GB", in: ["fr", "en-US"]) == "en-US")
    }

    @Test func thePlacementDefaultComesBeforeEnglishAndNothingIsNil() {
        #expect(pick("ja", default: "fr") == "fr")
        #expect(pick("ja", default: "it") == "en")
        #expect(pick(nil) == "en")
        #expect(pick("ja", in: ["de"]) == nil)
    }
}
