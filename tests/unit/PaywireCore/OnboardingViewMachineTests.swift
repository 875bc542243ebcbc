import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// The onboarding view rules on their own: which actions each page message leads to.
@Suite struct OnboardingViewMachineTests {
    let meta = OnboardingMeta(onboardingId: "onb", screenCid: "s1", screenIndex: 0, totalScreens: 3)

    func machine(recordEmail: Bool = false, opensPaywalls: Bool = false) throws -> OnboardingViewMachine {
        let text = #"{"placement":{"developer_id":"welcome","ab_test_name":"t"},"variation_id":"v","onboarding_id":"onb","record_email_on_profile":\#(recordEmail)}"#
        let reference = try OnboardingReference(try Fields(try JSONParser.parse(text), path: "onboarding"))
        return OnboardingViewMachine(info: ViewInfo(id: "onboarding-view-1", placementId: "welcome", abTestName: "t", variationId: "v"),
                                     onboarding: reference, opensPaywalls: opensPaywalls, locale: nil)
    }

    @Test func aCustomActionIsEmitted() throws {
        #expect(try machine().receive(.custom(actionId: "next", meta: meta)) == [.emit(.customAction(actionId: "next", meta))])
    }

    @Test func aCloseActionIsEmitted() throws {
        #expect(try machine().receive(.close(actionId: "x", meta: meta)) == [.emit(.closeAction(actionId: "x", meta))])
    }

    @Test func finishedLoadingIsEmitted() throws {
        #expect(try machine().receive(.finishedLoading(meta: meta)) == [.emit(.finishedLoading(meta))])
    }

    @Test func anAnalyticsEventIsEmitted() throws {
        let event = OnboardingAnalyticsEvent(name: "screen_presented", isKnown: true, elementId: nil, reply: nil)
        #expect(try machine().receive(.analytics(event, meta: meta)) == [.emit(.analytics(event, meta))])
    }

    @Test func anAnswerIsKeptBeforeItIsAnnounced() throws {
        let update = OnboardingStateUpdate(elementId: "goal", value: .input(.text, .string("fit")))
        #expect(try machine().receive(.stateUpdated(update, meta: meta)) == [.recordAnswer(update, meta), .emit(.stateUpdated(update, meta))])
    }

    @Test func anEmailIsRecordedOnTheProfileWhenTheOnboardingAsks() throws {
        let update = OnboardingStateUpdate(elementId: "mail", value: .input(.email, .string("a@b.c")))
        #expect(try machine(recordEmail: true).receive(.stateUpdated(update, meta: meta)).last == .recordEmail("a@b.c"))
    }

    @Test func anEmailIsNotRecordedWhenTheOnboardingDoesNotAsk() throws {
        let update = OnboardingStateUpdate(elementId: "mail", value: .input(.email, .string("a@b.c")))
        #expect(try machine().receive(.stateUpdated(update, meta: meta)).count == 2)
    }

    @Test func aPaywallActionIsLeftToTheHostUnlessTheViewOpensPaywalls() throws {
        #expect(try machine().receive(.openPaywall(actionId: "premium", meta: meta)) == [.emit(.paywallAction(actionId: "premium", meta, opened: nil))])
        #expect(try machine(opensPaywalls: true).receive(.openPaywall(actionId: "premium", meta: meta)) == [.openPaywall(actionId: "premium", meta)])
    }

    @Test func aMessageForAnotherOnboardingIsRefused() throws {
        let foreign = OnboardingMeta(onboardingId: "other", screenCid: "s1", screenIndex: 0, totalScreens: 3)
        #expect(throws: WireError.self) { try machine().receive(.custom(actionId: "next", meta: foreign)) }
    }
}
