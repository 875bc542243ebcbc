import Foundation
import XCTest

@testable import PaywireKit

/// When a controller's delegate hears what an action caused: before the synchronous action
/// returns for what the core emitted while taking it, on the main actor as it comes for what
/// comes later, in one order across both.
@MainActor
final class ControllerDeliveryTests: XCTestCase {
    private struct Shown {
        let client: PaywireClient
        let controller: PaywallController
        let delegate: RecordingPaywallDelegate
        let monthly: PaywallProduct
        let annual: PaywallProduct
    }

    /// A controller on the main paywall, which stays open after a purchase or a restore.
    private func show(_ config: JSONValue = viewsConfiguration()) async throws -> Shown {
        let client = try makeClient(config)
        var paywall = try await client.getPaywall(placementId: "main")
        paywall.dismissOnPurchase = false
        paywall.dismissOnRestore = false
        let products = try await client.getPaywallProducts(paywall: paywall)
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: products, delegate: delegate)
        let monthly = try XCTUnwrap(products.first { $0.vendorProductId == "premium_monthly" })
        let annual = try XCTUnwrap(products.first { $0.vendorProductId == "premium_annual" })
        return Shown(client: client, controller: controller, delegate: delegate, monthly: monthly, annual: annual)
    }

    func testEachActionReturnsAfterTheDelegateCallsItCaused() async throws {
        let shown = try await show()
        defer { shown.client.close() }
        let controller = shown.controller
        let delegate = shown.delegate
        controller.didAppear()
        XCTAssertEqual(delegate.calls, ["didAppear"])
        controller.select(product: shown.annual)
        XCTAssertEqual(delegate.calls.last, "didSelectProduct premium_annual")
        controller.purchase(product: shown.monthly)
        XCTAssertEqual(delegate.calls.suffix(2), ["didStartPurchase premium_monthly", "didFinishPurchase premium_monthly"],
                       "the test store buys inside the core's call: the whole purchase is heard before purchase(product:) returns")
        controller.restore()
        XCTAssertEqual(delegate.calls.suffix(2), ["didStartRestore", "didFinishRestoreWith"])
        controller.didDisappear()
        XCTAssertEqual(delegate.calls.suffix(2), ["didDisappear", "didDismissWith dismissed"])
        XCTAssertEqual(delegate.offMainThread, [])
    }

    func testTheClientsDelegateHearsTheProfileAPurchaseBroughtBeforeThePurchaseReturns() async throws {
        final class Listener: PaywireDelegate {
            var profiles: [Profile] = []
            func didLoadLatestProfile(_ profile: Profile) { profiles.append(profile) }
        }
        let shown = try await show()
        defer { shown.client.close() }
        let listener = Listener()
        shown.client.delegate = listener
        await assertEventually { listener.profiles.count == 1 }
        shown.controller.purchase(product: shown.monthly)
        XCTAssertEqual(listener.profiles.count, 2)
        XCTAssertEqual(listener.profiles.last?.accessLevels["premium"]?.isActive, true)
    }

    func testAnOutcomeThatComesLaterReachesTheDelegateOnTheMainActorInOrder() async throws {
        let shown = try await show(viewsConfiguration(purchase: ["type": "success", "delay_ms": 1_000]))
        defer { shown.client.close() }
        let delegate = shown.delegate
        shown.controller.purchase(product: shown.monthly)
        XCTAssertEqual(delegate.calls, ["didStartPurchase premium_monthly"], "the store answers a second later")
        shown.controller.select(product: shown.annual)
        XCTAssertEqual(delegate.calls, ["didStartPurchase premium_monthly", "didSelectProduct premium_annual"])
        await assertEventually("\(delegate.calls)") { delegate.calls.count == 3 }
        XCTAssertEqual(delegate.calls.last, "didFinishPurchase premium_monthly")
        XCTAssertEqual(delegate.lastPurchaseResult?.profile?.accessLevels["premium"]?.isActive, true)
        XCTAssertEqual(delegate.offMainThread, [])
    }

    func testADelegateThatCallsAnActionHearsItBeforeThatActionReturns() async throws {
        let shown = try await show()
        defer { shown.client.close() }
        let delegate = shown.delegate
        let monthly = shown.monthly
        delegate.reaction = { call, controller in
            guard call == "didSelectProduct premium_monthly" else { return }
            controller.purchase(product: monthly)
            delegate.calls.append("purchase returned")
        }
        shown.controller.select(product: monthly)
        XCTAssertEqual(delegate.calls, ["didSelectProduct premium_monthly", "didStartPurchase premium_monthly",
                                        "didFinishPurchase premium_monthly", "purchase returned"])
    }

    func testALaterEventsDelegateCallMayCallAnAction() async throws {
        let shown = try await show(viewsConfiguration(purchase: ["type": "success", "delay_ms": 100]))
        defer { shown.client.close() }
        let delegate = shown.delegate
        delegate.reaction = { call, controller in
            guard call == "didFinishPurchase premium_monthly" else { return }
            controller.didDisappear()
            delegate.calls.append("didDisappear() returned")
        }
        shown.controller.didAppear()
        shown.controller.purchase(product: shown.monthly)
        await assertEventually("\(delegate.calls)") { delegate.calls.last == "didDisappear() returned" }
        XCTAssertEqual(delegate.calls, ["didAppear", "didStartPurchase premium_monthly", "didFinishPurchase premium_monthly",
                                        "didDisappear", "didDismissWith dismissed", "didDisappear() returned"])
    }

    func testAnActionOnAClosedClientIsReportedAtOnce() async throws {
        let shown = try await show()
        shown.client.close()
        shown.controller.purchase(product: shown.monthly)
        shown.controller.restore()
        XCTAssertEqual(shown.delegate.calls, ["didFailPurchase premium_monthly closed", "didFailRestoreWith closed"])
    }

    func testAnActionReturnsWithoutWaitingWhenTheClientRefusesTheMarkerAsBusy() async throws {
        // Two calls wait for a store nobody answers: with async_call_limit 2 the client refuses
        // every further async call, the marker an action waits for among them.
        let config = viewsConfiguration(store: ["type": "host"], extra: ["host_request_timeout_ms": 60_000, "async_call_limit": 2])
        let client = try makeClient(config)
        let paywall = try await client.getPaywall(placementId: "main")
        let requests = client.events
        let waiting = (0..<2).map { _ in Task { try await client.getPaywallProducts(paywall: paywall) } }
        var asked = 0
        for await event in requests {
            if case .hostRequest(let request) = event, request.kind == .storeFetchProducts { asked += 1 }
            if asked == 2 { break }
        }
        do {
            _ = try await client.getProfile()
            XCTFail("the client owes two answers already")
        } catch let error as PaywireError {
            XCTAssertEqual(error.code, .busy)
        }
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: [], delegate: delegate)
        let started = Date()
        controller.didAppear()
        XCTAssertLessThan(Date().timeIntervalSince(started), ViewSession.routingDeadline, "returned without waiting for the marker")
        await assertEventually("\(delegate.calls)") { delegate.calls == ["didAppear"] }
        client.close()
        for call in waiting { _ = try? await call.value }
    }
}
