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
        await controller.didAppear()
        await controller.select(product: product)
        await controller.purchase(product: product)
        XCTAssertEqual(delegate.lastPurchaseResult?.profile?.accessLevels["premium"]?.isActive, true)
        await controller.restore()
        await controller.perform(action: .close)
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
        await controller.didAppear()
        await controller.purchase(product: product)
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
        await controller.didDisappear()
        await controller.purchase(product: product)
        await controller.didDisappear()
        XCTAssertEqual(delegate.calls, ["didDismissWith dismissed", "didFailPurchase premium_monthly invalid_state",
                                        "didFailRenderingWith invalid_state"])
    }

    func testACancelledPurchaseIsAResultNotAnError() async throws {
        var config = viewsConfiguration()
        if case .object(var members) = config, case .object(var store)? = members["store"], case .array(var products)? = store["products"],
           case .object(var first)? = products.first
        {
            first["purchase"] = ["type": "user_cancelled"]
            products[0] = .object(first)
            store["products"] = .array(products)
            members["store"] = .object(store)
            config = .object(members)
        }
        let client = try makeClient(config)
        defer { client.close() }
        let (paywall, products) = try await paywallAndProducts(client)
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: products, delegate: delegate)
        await controller.purchase(product: try XCTUnwrap(products.first))
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
        await controller.submitPromoCode("SPRING24")
        await controller.submitPromoCode("NOPE")
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
        await controller.openWebPayment(product: try XCTUnwrap(products.first))
        await assertEventually("\(delegate.calls)") { delegate.calls.count >= 2 }
        XCTAssertEqual(delegate.calls, ["shouldContinueWebPaymentNavigation premium_monthly", "didFinishWebPaymentNavigation premium_monthly ok"])
    }

    func testARenderingFailureTheAppReportsReachesTheDelegate() async throws {
        let client = try makeClient()
        defer { client.close() }
        let paywall = try await client.getPaywall(placementId: "main")
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: [], delegate: delegate)
        await controller.reportRenderingFailure("Failed to render paywall interface", underlyingError: "Invalid paywall configuration")
        XCTAssertEqual(delegate.calls, ["didFailRenderingWith rendering_failed"])
        XCTAssertEqual(delegate.lastError?.details["underlying_error"], "Invalid paywall configuration")
    }

    func testActionsSentBeforeTheViewExistsReachTheCoreInOrder() async throws {
        let client = try makeClient()
        defer { client.close() }
        let (paywall, products) = try await paywallAndProducts(client)
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: products, delegate: delegate)
        // Three actions made one after the other on the main actor, none awaited before the next.
        let actions = [Task { await controller.didAppear() }, Task { await controller.select(product: products[0]) },
                       Task { await controller.select(product: products[1]) }]
        for action in actions { await action.value }
        XCTAssertEqual(delegate.calls, ["didAppear", "didSelectProduct \(products[0].vendorProductId)",
                                        "didSelectProduct \(products[1].vendorProductId)"])
    }

    func testAViewTheCoreCannotCreateIsARenderingFailure() async throws {
        let client = try makeClient()
        defer { client.close() }
        var paywall = try await client.getPaywall(placementId: "main")
        paywall.builder = ["layout": "spiral", "sections": []]
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: [], delegate: delegate)
        await controller.didAppear()
        XCTAssertEqual(delegate.calls.first, "didFailRenderingWith rendering_failed", "\(delegate.calls)")
    }
}
