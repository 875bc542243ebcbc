import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

@Suite struct OnboardingMessageTests {
    private func parse(_ text: String, type: String? = nil) throws -> OnboardingMessage {
        try OnboardingMessage.parse(try JSONParser.parse(text), type: type)
    }

    private let meta = OnboardingMeta(onboardingId: "o", screenCid: "s", screenIndex: 1, totalScreens: 2)

    @Test func bothDialectsGiveTheSameMessage() throws {
        let snake = try parse(#"{"action_id":"a","meta":{"onboarding_id":"o","screen_cid":"s","screen_index":1,"total_screens":2}}"#, type: "custom")
        let camel = try parse(#"{"actionId":"a","meta":{"onboardingId":"o","screenClientId":"s","screenIndex":1,"screensTotal":2}}"#, type: "custom")
        #expect(snake == .custom(actionId: "a", meta: meta))
        #expect(camel == snake)
    }

    @Test func typeParameterWinsOverTheMessageType() throws {
        let message = try parse(#"{"type":"custom","action_id":"a","meta":{"onboarding_id":"o","screen_cid":"s","screen_index":1,"total_screens":2}}"#, type: "close")
        #expect(message == .close(actionId: "a", meta: meta))
    }

    @Test func kindIsInferredFromTheShape() throws {
        let metaJSON = #""meta":{"onboarding_id":"o","screen_cid":"s","screen_index":1,"total_screens":2}"#
        #expect(try parse("{\(metaJSON)}") == .finishedLoading(meta: meta))
        if case .analytics(let event, _) = try parse(#"{"name":"screenPresented",\#(metaJSON)}"#) {
            #expect(event.name == "screen_presented")
            #expect(event.isKnown)
        } else {
            Issue.record("not analytics")
        }
        if case .stateUpdated(let update, _) = try parse(#"{"elementId":"e",\#(metaJSON),"params":{"type":"input","value":{"type":"text","value":"x"}}}"#) {
            #expect(update == OnboardingStateUpdate(elementId: "e", value: .input(.text, .string("x"))))
        } else {
            Issue.record("not a state update")
        }
    }

    @Test(arguments: [(29, 2, 2024, true), (29, 2, 2023, false), (29, 2, 1900, false), (29, 2, 2000, true), (31, 4, 2020, false), (31, 12, 9999, true), (1, 13, 2020, false), (0, 1, 2020, false)])
    func datesAreCheckedAgainstTheCalendar(_ day: Int, _ month: Int, _ year: Int, _ valid: Bool) {
        let text = #"{"element_id":"d","meta":{"onboarding_id":"o","screen_cid":"s","screen_index":1,"total_screens":2},"params":{"type":"date_picker","value":{"day":\#(day),"month":\#(month),"year":\#(year)}}}"#
        let parsed = try? parse(text)
        #expect((parsed != nil) == valid)
    }

    @Test func errorsAreDecodingFailuresNamingTheField() {
        do {
            _ = try parse(#"{"action_id":"a","meta":{"onboardingId":"o","screenClientId":"s","screenIndex":5,"screensTotal":2}}"#, type: "custom")
            Issue.record("accepted an index out of range")
        } catch let error as WireError {
            #expect(error.code == .decodingFailed)
            #expect(error.details["field"] == .string("message.meta.screen_index"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test(arguments: [("screenCompleted", "screen_completed"), ("screen_completed", "screen_completed"), ("onboardingStarted", "onboarding_started"), ("x", "x")])
    func camelCaseNamesBecomeSnakeCase(_ name: String, _ snake: String) {
        #expect(OnboardingAnalyticsEvent.snakeCase(name) == snake)
    }
}
