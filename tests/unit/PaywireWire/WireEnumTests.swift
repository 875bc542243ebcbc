import Testing
@testable import PaywireWire

@Suite struct WireEnumTests {
    @Test func everyErrorCodeIsReadBackFromTheNameItIsWrittenAs() {
        for code in ErrorCode.allCases {
            #expect(ErrorCode(rawValue: code.rawValue) == code)
        }
    }

    @Test func aNameWithADifferentRawValueThanItsCaseNameIsReadByTheRawValue() {
        #expect(ErrorCode(rawValue: "response_verification_failed") == .responseVerificationFailed)
        #expect(ErrorCode(rawValue: "responseVerificationFailed") == nil)
        #expect(LogLevel(rawValue: "warn") == .warn)
    }

    @Test(arguments: ["", "Closed", "CLOSED", "closed ", " closed", "clos", "closedd", "closed\u{0}"])
    func aNameThatIsNotExactlyACasesNameReadsAsNone(name: String) {
        #expect(ErrorCode(rawValue: name) == nil)
    }

    @Test func namesAreComparedAsSwiftComparesStrings() {
        // A decomposed "é" equals the precomposed one in Swift; the synthesized initializer
        // agreed, so the walk must too (no enum has such a name today; this pins the rule).
        enum Accent: String, WireEnum { case cafe = "caf\u{E9}" }
        #expect(Accent(rawValue: "cafe\u{301}") == .cafe)
    }
}
