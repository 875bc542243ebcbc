import Foundation
import XCTest

@testable import PaywireKit

@MainActor
final class ControllerTests: XCTestCase {
    private func paywallAndProducts(_ client: PaywireClient, placement: String = "main") async throws -> (Paywall, [PaywallProduct]) {
        let paywall = try await client.getPaywall(placementId: placement)
        return (paywall, try await client.getPaywallProducts(paywall: paywall))
    }

    func testAControllerDrivenThroughTheSeedsFlowCallsItsDelegateInOrder() async throws {
        let client = try makeClient()
        defer { client.close() }
        var (paywall, products) = try await paywallAndProducts(client)
        paywall.dismissOnPurchase = false
        paywall.dismissOnRestore = false
        let product = try XCTUnwrap(products.first)
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: products, delegate: delegate)
        controller.didAppear()
        controller.select(product: product)
        controller.purchase(product: product)
        XCTAssertEqual(delegate.lastPurchaseResult?.profile?.accessLevels["premium"]?.isActive, true)
        controller.restore()
        controller.perform(action: .close)
        XCTAssertEqual(delegate.calls, [
            "didAppear", "didSelectProduct premium_monthly", "didStartPurchase premium_monthly", "didFinishPurchase premium_monthly",
            "didStartRestore", "didFinishRestoreWith", "didPerform close", "didDisappear", "didDismissWith dismissed",
        ])
        XCTAssertEqual(controller.view?.placementId, "main")
    }

    func testAPurchaseThatDismissesThePaywallIsFollowedByItsDismissal() async throws {
        let client = try makeClient()
        defer { client.close() }
        let (paywall, products) = try await paywallAndProducts(client)
        let product = try XCTUnwrap(products.first)
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: products, delegate: delegate)
        controller.didAppear()
        controller.purchase(product: product)
        XCTAssertEqual(delegate.calls, ["didAppear", "didStartPurchase premium_monthly", "didFinishPurchase premium_monthly",
                                        "didDisappear", "didDismissWith purchased"])
    }

    func testAnActionTheCoreRefusesIsReportedToTheDelegate() async throws {
        let client = try makeClient()
        defer { client.close() }
        let (paywall, products) = try await paywallAndProducts(client)
        let product = try XCTUnwrap(products.first)
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: products, delegate: delegate)
        controller.didDisappear()
        controller.purchase(product: product)
        controller.didDisappear()
        XCTAssertEqual(delegate.calls, ["didDismissWith dismissed", "didFailPurchase premium_monthly invalid_state",
                                        "didFailRenderingWith invalid_state"])
    }

    func testACancelledPurchaseIsAResultNotAnError() async throws {
        let config = viewsConfiguration(purchase: ["type": "user_cancelled"])
        let client = try makeClient(config)
        defer { client.close() }
        let (paywall, products) = try await paywallAndProducts(client)
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: products, delegate: delegate)
        controller.purchase(product: try XCTUnwrap(products.first))
        XCTAssertEqual(delegate.lastPurchaseResult, .userCancelled)
        XCTAssertEqual(delegate.lastPurchaseResult?.isPurchaseCancelled, true)
    }

    func testWithoutProductsAFailedLoadAsksTheDelegateWhetherToRetry() async throws {
        let store: JSONObject = ["type": "test", "products": [["vendor_product_id": "premium_monthly", "price": "9.99"],
                                                              ["vendor_product_id": "premium_annual", "price": "59.99"]],
                                 "fetch_products": ["fail_times": 1, "message": "Failed to load products from the server",
                                                    "underlying_error": "Network timeout"]]
        let client = try makeClient(viewsConfiguration(store: store))
        defer { client.close() }
        let paywall = try await client.getPaywall(placementId: "partial")
        let delegate = RecordingPaywallDelegate()
        delegate.retryLoading = true
        let controller = client.paywallController(for: paywall, delegate: delegate)
        await assertEventually("\(delegate.calls)") { delegate.calls.count >= 2 }
        XCTAssertEqual(delegate.calls, ["didFailLoadingProductsWith products_loading_failed", "didPartiallyLoadProducts ghost_product"])
        _ = controller
    }

    func testAPromoCodeIsValidatedByTheDelegatesAsyncAnswer() async throws {
        let client = try makeClient()
        defer { client.close() }
        let events = client.events
        let paywall = try await client.getPaywall(placementId: "main")
        let delegate = RecordingPaywallDelegate()
        delegate.promoCodes = ["SPRING24"]
        let controller = client.paywallController(for: paywall, delegate: delegate)
        controller.submitPromoCode("SPRING24")
        controller.submitPromoCode("NOPE")
        var answers: [String: Bool] = [:]
        for await event in events {
            if case .paywallViewDidValidatePromoCode(let validated) = event { answers[validated.code] = validated.valid }
            if answers.count == 2 { break }
        }
        XCTAssertEqual(answers, ["SPRING24": true, "NOPE": false])
        XCTAssertEqual(delegate.calls, ["onPromoCodeSubmit SPRING24", "onPromoCodeSubmit NOPE"])
    }

    func testAWebPaymentIsOpenedByTheDelegate() async throws {
        let client = try makeClient()
        defer { client.close() }
        let (paywall, products) = try await paywallAndProducts(client)
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: products, delegate: delegate)
        controller.openWebPayment(product: try XCTUnwrap(products.first))
        await assertEventually("\(delegate.calls)") { delegate.calls.count >= 2 }
        XCTAssertEqual(delegate.calls, ["shouldContinueWebPaymentNavigation premium_monthly", "didFinishWebPaymentNavigation premium_monthly ok"])
    }

    func testARenderingFailureTheAppReportsReachesTheDelegate() async throws {
        let client = try makeClient()
        defer { client.close() }
        let paywall = try await client.getPaywall(placementId: "main")
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: [], delegate: delegate)
        controller.reportRenderingFailure("Failed to render paywall interface", underlyingError: "Invalid paywall configuration")
        XCTAssertEqual(delegate.calls, ["didFailRenderingWith rendering_failed"])
        XCTAssertEqual(delegate.lastError?.details["underlying_error"], "Invalid paywall configuration")
    }

    func testTheViewExistsOnceTheControllerIsMade() async throws {
        let client = try makeClient()
        defer { client.close() }
        var (paywall, products) = try await paywallAndProducts(client)
        paywall.builder = ["layout": "grid", "sections": [["type": "header", "title": "Hi"]]]
        let controller = client.paywallController(for: paywall, products: products)
        let view = try XCTUnwrap(controller.view, "create_paywall_view answered before paywallController(for:) returned")
        XCTAssertEqual(view.placementId, "main")
        let layout = try controller.layout()
        XCTAssertEqual(layout.layout, .grid)
        XCTAssertEqual(layout.sections.count, 1)
    }

    func testAViewTheCoreCannotCreateIsReportedOnceTheControllerIsMadeThenByEachAction() async throws {
        let client = try makeClient()
        let paywall = try await client.getPaywall(placementId: "main")
        client.close()
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: [], delegate: delegate)
        XCTAssertNil(controller.view)
        XCTAssertEqual(delegate.calls, [], "heard once paywallController(for:) has returned, not inside it")
        await assertEventually("\(delegate.calls)") { !delegate.calls.isEmpty }
        controller.didAppear()
        XCTAssertEqual(delegate.calls, ["didFailRenderingWith closed", "didFailRenderingWith closed"], "the view's failure, then the action's")
        XCTAssertThrowsError(try controller.layout())
    }

    func testAViewTheCoreCannotCreateIsARenderingFailure() async throws {
        let client = try makeClient()
        defer { client.close() }
        var paywall = try await client.getPaywall(placementId: "main")
        paywall.builder = ["layout": "spiral", "sections": []]
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: [], delegate: delegate)
        XCTAssertEqual(delegate.calls, [], "heard once paywallController(for:) has returned, not inside it")
        controller.didAppear()
        XCTAssertEqual(delegate.calls, ["didFailRenderingWith rendering_failed", "didAppear"],
                       "the failure the core reported when it made the view comes first")
    }
}
