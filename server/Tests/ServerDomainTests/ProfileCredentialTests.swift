import PaywireWire
@testable import ServerDomain
import Testing
@testable import paywire_server

/// The rule of profile credentials on its own: which request may name a profile, which is
/// answered with a new credential, and which is refused with which code.
@Suite struct ProfileCredentialTests {
    typealias Kept = ProfileCredentials.Kept

    @Test func aProfileNoDeviceHoldsIsIssuedACredentialWhateverTheRequestCarries() {
        #expect(ProfileCredentials.verdict(kept: [], given: nil) == .issue)
        #expect(ProfileCredentials.verdict(kept: [], given: "d1") == .issue)
        #expect(ProfileCredentials.verdict(kept: [Kept(digest: "d1", used: false)], given: nil) == .issue,
                "a pending credential whose answer was lost is issued again")
        #expect(ProfileCredentials.verdict(kept: [Kept(digest: "d1", used: false)], given: "d2") == .issue)
    }

    @Test func aPendingCredentialCarriedOpensTheProfileAndIsMarkedUsed() {
        #expect(ProfileCredentials.verdict(kept: [Kept(digest: "d1", used: false)], given: "d1") == .open(markUsed: "d1"))
        #expect(ProfileCredentials.verdict(kept: [Kept(digest: "d1", used: true)], given: "d1") == .open(markUsed: nil))
    }

    @Test func aHeldProfileRefusesARequestWithoutOneOfItsCredentials() {
        let kept = [Kept(digest: "d1", used: true), Kept(digest: "d2", used: false)]
        #expect(ProfileCredentials.verdict(kept: kept, given: nil) == .refused(code: "profile_credential_required"))
        #expect(ProfileCredentials.verdict(kept: kept, given: "d3") == .refused(code: "profile_credential_invalid"))
        #expect(ProfileCredentials.verdict(kept: kept, given: "") == .refused(code: "profile_credential_invalid"))
        #expect(ProfileCredentials.verdict(kept: kept, given: "d2") == .open(markUsed: "d2"),
                "a second device's credential (an identity handed it over) opens the profile too")
    }

    @Test func theProfilesARequestNamesAreItsPathsItsBodysAndItsRecords() {
        let body = Array(#"{"profile_id":"b","records":[{"profile_id":"c"},{"profile_id":"b"},{"name":"x"}]}"#.utf8)
        #expect(ProfileDoor.named(pathProfileId: "a", parsed: try? JSONValue(parsing: body)) == ["a", "b", "c"])
        #expect(ProfileDoor.named(pathProfileId: nil, parsed: nil) == [], "a body that is no JSON names no profile")
    }

    @Test func theProfilesTheServerMakesForItselfAreReservedNames() {
        #expect(ProfileCredentials.isServersOwn("web_purchase:cs_test_1"))
        #expect(ProfileCredentials.isServersOwn("web_purchase:"))
        #expect(ProfileCredentials.isServersOwn("web-" + String(repeating: "0a", count: 16)))
        #expect(!ProfileCredentials.isServersOwn("web-buyer"), "an app's own id that only starts like a visitor's")
        #expect(!ProfileCredentials.isServersOwn("web-" + String(repeating: "0A", count: 16)), "a visitor's digits are lowercase")
        #expect(!ProfileCredentials.isServersOwn("web-" + String(repeating: "0a", count: 17)))
        #expect(!ProfileCredentials.isServersOwn("Web_purchase:cs_1"))
        #expect(!ProfileCredentials.isServersOwn("6f1c0b8e-2d4a-4c59-9a3e-1b2c3d4e5f60"))
    }
}
