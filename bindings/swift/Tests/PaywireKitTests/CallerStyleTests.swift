import Foundation
import XCTest

@testable import PaywireKit

/// A controller's actions are synchronous and non-throwing, so a caller may write them with or
/// without `await` and get the same behaviour: both compile (a program written for an `async`
/// API keeps compiling) and each returns after the delegate heard what it caused.
///
/// Why the `await` calls below sit in code off the main actor: there `await` is required (it
/// hops to the main actor, where the synchronous action runs). In main-actor code, `await`
/// before a synchronous call compiles too, but with a warning ("no 'async' operations occur
/// within 'await' expression"), and `make swift-kit` builds the tests with warnings as errors,
/// so that case cannot be written here (bindings/swift/README.md says how it was checked).
final class CallerStyleTests: XCTestCase {
    private static let flow = ["didAppear", "didSelectProduct premium_monthly", "didStartPurchase premium_monthly",
                               "didFinishPurchase premium_monthly", "didStartRestore", "didFinishRestoreWith",
                               "didDisappear", "didDismissWith restore_success"]

    /// The main paywall (kept open after the purchase), its products, and the first of them.
    private static func paywall(of client: PaywireClient) async throws -> (Paywall, [PaywallProduct], PaywallProduct) {
        var paywall = try await client.getPaywall(placementId: "main")
        paywall.dismissOnPurchase = false
        let products = try await client.getPaywallProducts(paywall: paywall)
        return (paywall, products, try XCTUnwrap(products.first))
    }

    @MainActor
    func testActionsWrittenWithoutAwaitOnTheMainActor() async throws {
        let client = try makeClient()
        defer { client.close() }
        let (paywall, products, product) = try await Self.paywall(of: client)
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: products, delegate: delegate)
        controller.didAppear()
        controller.select(product: product)
        controller.purchase(product: product)
        XCTAssertEqual(delegate.calls.last, "didFinishPurchase premium_monthly")
        controller.restore()
        XCTAssertEqual(delegate.calls, Self.flow)
    }

    func testActionsWrittenWithAwaitFromOffTheMainActor() async throws {
        let client = try makeClient()
        defer { client.close() }
        let (paywall, products, product) = try await Self.paywall(of: client)
        let delegate = await RecordingPaywallDelegate()
        let controller = await client.paywallController(for: paywall, products: products, delegate: delegate)
        await controller.didAppear()
        await controller.select(product: product)
        await controller.purchase(product: product)
        let afterPurchase = await delegate.calls.last
        XCTAssertEqual(afterPurchase, "didFinishPurchase premium_monthly")
        await controller.restore()
        let calls = await delegate.calls
        XCTAssertEqual(calls, Self.flow)
    }
}
