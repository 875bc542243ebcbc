import Testing
@testable import PaywireWire

@Suite struct NearestNameTests {
    private let configKeys = ["profile_id", "fallback", "store", "locale", "log_level", "transport", "storage_dir", "debug"]

    @Test(arguments: [
        ("fallbak", "fallback"),        // a letter left out
        ("profileId", "profile_id"),    // camelCase: case is ignored, the underscore is one edit
        ("log_lveel", "log_level"),     // two letters swapped: one edit
        ("stroe", "store"),
        ("Locale", "locale"),
        ("transprot", "transport"),
    ])
    func aNearMissNamesTheKeyItLikelyMeant(typed: String, meant: String) {
        #expect(NearestName.suggestion(for: typed, among: configKeys) == meant)
    }

    @Test(arguments: ["shade", "colour", "zebra", "x", "analytics_flush", "storage"])
    func aNameFarFromEveryKeyNamesNone(typed: String) {
        // "storage" is two edits from "store" but short names allow one: a new key a newer host
        // sends is not taken for a typo.
        #expect(NearestName.suggestion(for: typed, among: configKeys) == nil)
    }

    @Test func aKnownNameIsNoMiss() {
        #expect(NearestName.suggestion(for: "store", among: configKeys) == nil)
    }

    @Test func tiesGoToTheFirstInSortedOrderWhateverTheCandidatesOrder() {
        #expect(NearestName.suggestion(for: "cat", among: ["cab", "car"]) == "cab")
        #expect(NearestName.suggestion(for: "cat", among: ["car", "cab"]) == "cab")
    }

    @Test func distancesCountInsertionsDeletionsSubstitutionsAndSwaps() {
        func distance(_ a: String, _ b: String) -> Int {
            NearestName.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: 10)
        }
        #expect(distance("", "abc") == 3)
        #expect(distance("abc", "abc") == 0)
        #expect(distance("abc", "acb") == 1)
        #expect(distance("kitten", "sitting") == 3)
        #expect(NearestName.editDistance(Array("abcdef".unicodeScalars), Array("uvwxyz".unicodeScalars), limit: 2) == 3)
    }
}
