import Testing
@testable import PaywireModel
@testable import PaywireWire

@Suite struct AudienceRuleTests {
    private func rule(_ text: String) throws -> AudienceRule {
        try AudienceRule.load(try JSONParser.parse(text), path: "rule")
    }

    private var context: AudienceContext {
        AudienceContext(customAttributes: JSONObject([("spend", .number(JSONNumber(120))), ("tier", .string("gold"))]),
                        language: "fr", platform: "ios", appVersion: "2.10.1", activeAccessLevels: ["premium"], installAgeDays: 2)
    }

    @Test(arguments: [
        (#"{"attribute":"custom.spend","op":"gt","value":100}"#, true),
        (#"{"attribute":"custom.spend","op":"eq","value":120.0}"#, true),
        (#"{"attribute":"custom.tier","op":"in","value":["gold","platinum"]}"#, true),
        (#"{"attribute":"custom.missing","op":"ne","value":"x"}"#, true),
        (#"{"attribute":"custom.missing","op":"eq","value":"x"}"#, false),
        (#"{"attribute":"custom.missing","op":"exists","value":false}"#, true),
        (#"{"attribute":"app_version","op":"gte","value":"2.9"}"#, true),
        (#"{"attribute":"app_version","op":"lt","value":"2.10.1.1"}"#, true),
        (#"{"attribute":"access_level.premium","op":"eq","value":true}"#, true),
        (#"{"attribute":"access_level.gold","op":"eq","value":true}"#, false),
        (#"{"all":[]}"#, true),
        (#"{"any":[]}"#, false),
        (#"{"not":{"attribute":"platform","op":"eq","value":"android"}}"#, true),
        (#"{"all":[{"attribute":"locale","op":"eq","value":"fr"},{"attribute":"install_age_days","op":"lte","value":2}]}"#, true),
    ])
    func rulesEvaluateAgainstTheContext(_ text: String, _ expected: Bool) throws {
        #expect(try rule(text).matches(context) == expected)
    }

    @Test(arguments: [
        #"{"attribute":"custom.","op":"eq","value":1}"#, #"{"attribute":"color","op":"eq","value":1}"#,
        #"{"attribute":"platform","op":"matches","value":"i"}"#, #"{"attribute":"platform","op":"in","value":[]}"#,
        #"{"attribute":"custom.n","op":"gt","value":"5"}"#, #"{"attribute":"platform","op":"exists","value":1}"#,
        #"{"all":[{"x":1}]}"#, #"{"all":[],"any":[]}"#, #"{"attribute":"platform","op":"eq","value":[1]}"#,
    ])
    func malformedRulesAreRefused(_ text: String) {
        #expect(throws: WireError.self) { try rule(text) }
    }

    @Test func deeplyNestedRulesAreRefused() {
        let deep = String(repeating: #"{"not":"#, count: 20) + #"{"all":[]}"# + String(repeating: "}", count: 20)
        #expect(throws: WireError.self) { try rule(deep) }
    }

    @Test func versionsCompareNumericallyPartByPart() {
        typealias V = AudienceRule.Version
        #expect(V("2.9")! < V("2.10")!)
        #expect(V("2")! == V("2.0.0")!)
        #expect(V("1.a") == nil)
        #expect(V("") == nil)
    }
}
