import Foundation
import XCTest

@testable import PaywireKit

@MainActor
final class RecordingOnboardingDelegate: OnboardingControllerDelegate {
    var calls: [String] = []
    func onboardingController(_ controller: OnboardingController, onCustomAction action: OnboardingCustomAction) {
        calls.append("onCustomAction \(action.actionId) \(action.meta.screenIndex)/\(action.meta.totalScreens)")
    }
    func onboardingController(_ controller: OnboardingController, onCloseAction action: OnboardingCloseAction) {
        calls.append("onCloseAction \(action.actionId)")
    }
    func onboardingController(_ controller: OnboardingController, onStateUpdatedAction action: OnboardingStateUpdatedAction) {
        calls.append("onStateUpdatedAction \(action.elementId) \(action.params.elementType)")
    }
    func onboardingController(_ controller: OnboardingController, didFailWithError error: PaywireError) {
        calls.append("didFailWithError \(error.code)")
    }
}

@MainActor
final class OnboardingTests: XCTestCase {
    private func client() throws -> PaywireClient {
        try makeClient(["profile_id": "profile-onboarding", "fallback": ["path": .string(repositoryFile("tests/conformance/bundles/basic.json"))],
                        "store": ["type": "test", "products": [["vendor_product_id": "annual", "price": "59.99"]]]])
    }

    func testMessagesOfBothDialectsReachTheSeedsDelegateMethods() async throws {
        let client = try client()
        defer { client.close() }
        let onboarding = try await client.getOnboarding(placementId: "main_onboarding")
        let delegate = RecordingOnboardingDelegate()
        let controller = client.onboardingController(for: onboarding, delegate: delegate)
        let camel: JSONObject = ["actionId": "allowNotifications",
                                 "meta": ["onboardingId": "onboarding_123", "screenClientId": "profile_screen", "screenIndex": 0, "screensTotal": 3]]
        let accepted = controller.ingest(message: camel, type: .custom)
        XCTAssertEqual(accepted?.accepted, true)
        controller.ingest(message: #"{"action_id": "close_button", "meta": {"onboarding_id": "onboarding_123", "screen_cid": "s", "screen_index": 2, "total_screens": 3}}"#,
                                type: .close)
        controller.ingest(message: "{\"action_id\": ")
        XCTAssertEqual(delegate.calls, ["onCustomAction allowNotifications 0/3", "onCloseAction close_button", "didFailWithError decoding_failed"])
    }
}
