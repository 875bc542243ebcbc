import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// The rules of `update_profile`'s standard attributes, `set_integration_identifiers` and
/// `update_attribution`, and how the profile keeps what they set.
@Suite struct ProfileAttributeRulesTests {
    /// 2024-01-15T10:30:00Z.
    private let now = 1_705_314_600_000

    private func fields(_ text: String) throws -> Fields {
        guard case .object(let object) = try JSONParser.parse(text) else { throw WireError(.wrongParam, "not an object") }
        return Fields(object)
    }

    private func refusedField(_ params: String) throws -> String? {
        var profile = Profile(profileId: "p", customerUserId: nil)
        let update = try fields(params)
        do throws(WireError) {
            try ProfileUpdate.apply(update, to: &profile, now: now)
            return nil
        } catch {
            guard case .string(let field)? = error.details["field"] else { return "" }
            return field
        }
    }

    @Test func emailNeedsOneAtADottedDomainAndNoSpaces() {
        #expect(StandardAttributeRules.isValidEmail("ada@example.com"))
        #expect(StandardAttributeRules.isValidEmail("a.b+tag@mail.example.co.uk"))
        for bad in ["", "ada", "ada@", "@example.com", "ada@example", "ada@@example.com", "a da@example.com", "ada@example.com.",
                    String(repeating: "a", count: 250) + "@x.io"] {
            #expect(!StandardAttributeRules.isValidEmail(bad), "\(bad)")
        }
    }

    @Test func phoneNumberIsFourToFifteenDigitsWithSeparators() {
        for good in ["+44 20 7946 0958", "(555) 123-4567", "1234", "+123456789012345"] {
            #expect(StandardAttributeRules.isValidPhone(good), "\(good)")
        }
        for bad in ["123", "+1234567890123456", "555-CALL", "12+34", "", "+"] {
            #expect(!StandardAttributeRules.isValidPhone(bad), "\(bad)")
        }
    }

    @Test func namesAreNotBlankAndAtMost256Bytes() {
        #expect(StandardAttributeRules.isValidName("Ada"))
        #expect(StandardAttributeRules.isValidName(String(repeating: "é", count: 128)))
        #expect(!StandardAttributeRules.isValidName(String(repeating: "é", count: 129)))
        #expect(!StandardAttributeRules.isValidName("  \t"))
        #expect(!StandardAttributeRules.isValidName("A\u{1}da"))
    }

    @Test func birthdayIsARealDateFrom1900UpToToday() {
        #expect(StandardAttributeRules.isValidBirthday("2024-01-15", now: now))
        #expect(StandardAttributeRules.isValidBirthday("2000-02-29", now: now))
        #expect(StandardAttributeRules.isValidBirthday("1900-01-01", now: now))
        for bad in ["2024-01-16", "2023-02-29", "1900-02-29", "1899-12-31", "1990-13-01", "1990-00-10", "1990-04-31", "1990-1-5",
                    "19900105", "1990-01-05T00:00:00Z", "abcd-ef-gh"] {
            #expect(!StandardAttributeRules.isValidBirthday(bad, now: now), "\(bad)")
        }
    }

    @Test func eachRefusalNamesItsMember() throws {
        #expect(try refusedField(#"{"gender":"f"}"#) == "gender")
        #expect(try refusedField(#"{"gender":"female"}"#) == nil)
        #expect(try refusedField(#"{"app_tracking_transparency_status":"allowed"}"#) == "app_tracking_transparency_status")
        #expect(try refusedField(#"{"analytics_disabled":1}"#) == "analytics_disabled")
        #expect(try refusedField(#"{"birthday":"2030-01-01"}"#) == "birthday")
        #expect(try refusedField(#"{"first_name":12}"#) == "first_name")
        #expect(try refusedField(#"{"nickname":"x"}"#) == "nickname")
        #expect(try refusedField(#"{"custom_attributes":{"a b":1}}"#) == "custom_attributes.a b")
        #expect(try refusedField(#"{}"#) == "")
    }

    @Test func aRefusedUpdateChangesNothingAndNullRemoves() throws {
        var profile = Profile(profileId: "p", customerUserId: nil)
        try ProfileUpdate.apply(try fields(#"{"email":"ada@example.com","phone_number":"+1 555 0100","analytics_disabled":true}"#),
                                to: &profile, now: now)
        let before = profile
        #expect(throws: WireError.self) {
            try ProfileUpdate.apply(try fields(#"{"first_name":"Ada","gender":"x"}"#), to: &profile, now: now)
        }
        #expect(profile == before)
        try ProfileUpdate.apply(try fields(#"{"phone_number":null}"#), to: &profile, now: now)
        #expect(profile.standard == ["email": "ada@example.com"])
        #expect(profile.analyticsDisabled)
    }

    @Test func integrationIdsTakeKnownKeysAndBoundedValues() throws {
        var ids: [String: String] = [:]
        try IntegrationRules.apply(try fields(#"{"appsflyer_id":"af","one_signal_player_id":"os"}"#), to: &ids)
        #expect(ids == ["appsflyer_id": "af", "one_signal_player_id": "os"])
        for bad in [#"{}"#, #"{"appsflyer":"x"}"#, #"{"appsflyer_id":""}"#, #"{"appsflyer_id":null}"#,
                    #"{"appsflyer_id":"\#(String(repeating: "x", count: 257))"}"#] {
            var kept = ids
            #expect(throws: WireError.self) { try IntegrationRules.apply(try fields(bad), to: &kept) }
            #expect(kept == ids)
        }
    }

    @Test func attributionNeedsASourceAndAnObject() throws {
        let (source, value) = try IntegrationRules.attribution(try fields(#"{"source":"adjust","attribution":{"a":1},"network_user_id":"n"}"#))
        #expect(source == "adjust")
        #expect(value.networkUserId == "n")
        for bad in [#"{"attribution":{}}"#, #"{"source":"Adjust","attribution":{}}"#, #"{"source":"adjust"}"#,
                    #"{"source":"adjust","attribution":[]}"#, #"{"source":"adjust","attribution":{},"network_user_id":""}"#,
                    #"{"source":"adjust","attribution":{"big":"\#(String(repeating: "x", count: 10_000))"}}"#] {
            #expect(throws: WireError.self) { try IntegrationRules.attribution(try fields(bad)) }
        }
    }

    @Test func theRecordKeepsEverythingTheRulesSet() throws {
        var profile = Profile(profileId: "p", customerUserId: "c")
        try ProfileUpdate.apply(try fields(#"{"email":"ada@example.com","gender":"other","birthday":"1990-12-10","analytics_disabled":true}"#),
                                to: &profile, now: now)
        profile.integrationIds = ["branch_id": "b"]
        profile.attributions = ["adjust": SourceAttribution(attribution: JSONObject([("network", .string("Organic"))]), networkUserId: nil)]
        #expect(Profile.fromRecord(profile.record) == profile)
    }

    @Test func theOptOutOutlivesLogoutAndIdentify() {
        var profile = Profile(profileId: "p", customerUserId: nil)
        profile.analyticsDisabled = true
        profile.integrationIds = ["appsflyer_id": "af"]
        let claimed = ProfileStore.identified(profile, as: "a", newProfileId: { "p-a" })
        #expect(claimed?.analyticsDisabled == true)
        #expect(claimed?.integrationIds == ["appsflyer_id": "af"])
        let other = claimed.flatMap { ProfileStore.identified($0, as: "b", newProfileId: { "p-b" }) }
        #expect(other?.analyticsDisabled == true)
        #expect(other?.integrationIds.isEmpty == true)
    }

    @Test func aRecordGoesToTheRouteItWasKeptWithNotToOneReadFromItsBody() {
        let kept = OutboxRecord(eventId: "e", seq: 1, kind: .profileAttributes, body: Array(#"{"profile_id":"other"}"#.utf8),
                                route: Outbox.route(of: .profileAttributes, profileId: "a b"))
        #expect(Outbox.route(of: kept) == ("PUT", "profiles/a%20b/attributes"))
        #expect(Outbox.route(of: .integrationIds, profileId: "p") == "profiles/p/integration-ids")
    }

    @Test func aRecordAnOlderVersionKeptWithoutARouteHasItsRouteWorkedOutFromItsBody() {
        func record(_ kind: RecordKind, _ body: String) -> OutboxRecord {
            OutboxRecord(eventId: "e", seq: 1, kind: kind, body: Array(body.utf8))
        }
        #expect(Outbox.route(of: record(.profileAttributes, #"{"profile_id":"a b"}"#)) == ("PUT", "profiles/a%20b/attributes"))
        #expect(Outbox.route(of: record(.integrationIds, #"{"profile_id":"p"}"#)) == ("PUT", "profiles/p/integration-ids"))
        #expect(Outbox.route(of: record(.installAttribution, "{}")) == ("POST", "attribution"))
        #expect(Outbox.route(of: record(.money, "{}")) == ("POST", "purchases"))
        for kind in [RecordKind.money, .profileAttributes, .integrationIds, .installAttribution] { #expect(kind.lane == .purchases) }
        #expect(RecordKind.attribution.lane == .events)
    }
}
