import Foundation
import XCTest

@testable import PaywireKit

/// The checkout the tests run in: PAYWIRE_ROOT (make test-swift-kit sets it), else four folders
/// above this file.
let repositoryRoot: URL = {
    if let root = ProcessInfo.processInfo.environment["PAYWIRE_ROOT"], !root.isEmpty { return URL(fileURLWithPath: root) }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}()

func repositoryFile(_ path: String) -> String { repositoryRoot.appendingPathComponent(path).path }

/// The test store of the views vectors (tests/conformance/vectors/views.json): three products,
/// a fixed clock, a one-second host request deadline. `purchase` is what buying the first
/// product plays (the test store's `scripted_outcome`; default success at once).
func viewsConfiguration(store: JSONObject? = nil, purchase: JSONObject? = nil, extra: JSONObject = [:]) -> JSONValue {
    var monthly: JSONObject = [
        "vendor_product_id": "premium_monthly", "title": "Premium Monthly", "description": "Premium subscription for 1 month",
        "price": "9.99", "currency_code": "USD", "currency_symbol": "$", "period": ["unit": "month", "number_of_units": 1],
        "access_level": "premium"]
    if let purchase { monthly["purchase"] = .object(purchase) }
    let products: JSONValue = [
        .object(monthly),
        ["vendor_product_id": "premium_annual", "title": "Premium Annual", "description": "Premium subscription for 1 year",
         "price": "59.99", "currency_code": "USD", "currency_symbol": "$", "period": ["unit": "year", "number_of_units": 1],
         "access_level": "premium"],
        ["vendor_product_id": "lifetime", "title": "Lifetime", "description": "Premium for life", "price": "149.00",
         "currency_code": "USD", "access_level": "premium"],
    ]
    var config: JSONObject = [
        "profile_id": "profile-swift-tests",
        "fallback": ["path": .string(repositoryFile("tests/conformance/bundles/views.json"))],
        "store": .object(store ?? ["type": "test", "now": "2024-01-15T10:30:00.000Z", "products": products]),
        "host_request_timeout_ms": 1000,
        "products_retry_delay_ms": 50,
    ]
    config.merge(extra) { _, new in new }
    return .object(config)
}

func makeClient(_ config: JSONValue = viewsConfiguration(), store: (any PaywireStore)? = nil) throws -> PaywireClient {
    try PaywireClient(configurationJSON: config.jsonText, store: store)
}

/// Waits (up to `seconds`) for `condition` to hold, polling on the main actor.
@MainActor
func eventually(_ seconds: Double = 5, _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return true
}

/// Records every call of a paywall controller's delegate, by name.
@MainActor
final class RecordingPaywallDelegate: PaywallControllerDelegate {
    var calls: [String] = []
    /// Calls made off the main thread (there should be none).
    var offMainThread: [String] = []
    /// Runs after each call is recorded: a delegate that reacts by calling the controller.
    var reaction: ((String, PaywallController) -> Void)?
    var retryLoading = false
    var promoCodes: Set<String> = []
    var openWebPayments = true
    var lastPurchaseResult: PurchaseResult?
    var lastError: PaywireError?

    func record(_ controller: PaywallController, _ call: String) {
        if !Thread.isMainThread { offMainThread.append(call) }
        calls.append(call)
        reaction?(call, controller)
    }

    func paywallControllerDidAppear(_ controller: PaywallController) { record(controller, "didAppear") }
    func paywallControllerDidDisappear(_ controller: PaywallController) { record(controller, "didDisappear") }
    func paywallController(_ controller: PaywallController, didDismissWith reason: DismissReason) { record(controller, "didDismissWith \(reason)") }
    func paywallController(_ controller: PaywallController, didPerform action: PaywallAction) { record(controller, "didPerform \(action)") }
    func paywallController(_ controller: PaywallController, didSelectProduct product: PaywallProduct) {
        record(controller, "didSelectProduct \(product.vendorProductId)")
    }
    func paywallController(_ controller: PaywallController, didStartPurchase product: PaywallProduct) {
        record(controller, "didStartPurchase \(product.vendorProductId)")
    }
    func paywallController(_ controller: PaywallController, didFinishPurchase product: PaywallProduct, purchaseResult: PurchaseResult) {
        lastPurchaseResult = purchaseResult
        record(controller, "didFinishPurchase \(product.vendorProductId)")
    }
    func paywallController(_ controller: PaywallController, didFailPurchase product: PaywallProduct, error: PaywireError) {
        lastError = error
        record(controller, "didFailPurchase \(product.vendorProductId) \(error.code)")
    }
    func paywallControllerDidStartRestore(_ controller: PaywallController) { record(controller, "didStartRestore") }
    func paywallController(_ controller: PaywallController, didFinishRestoreWith profile: Profile) { record(controller, "didFinishRestoreWith") }
    func paywallController(_ controller: PaywallController, didFailRestoreWith error: PaywireError) {
        lastError = error
        record(controller, "didFailRestoreWith \(error.code)")
    }
    func paywallController(_ controller: PaywallController, didFailRenderingWith error: PaywireError) {
        lastError = error
        record(controller, "didFailRenderingWith \(error.code)")
    }
    func paywallController(_ controller: PaywallController, didFailLoadingProductsWith error: PaywireError) -> Bool {
        record(controller, "didFailLoadingProductsWith \(error.code)")
        defer { retryLoading = false }
        return retryLoading
    }
    func paywallController(_ controller: PaywallController, didPartiallyLoadProducts failedIds: [String]) {
        record(controller, "didPartiallyLoadProducts \(failedIds.joined(separator: ","))")
    }
    func paywallController(_ controller: PaywallController, onPromoCodeSubmit code: String) async -> Bool {
        record(controller, "onPromoCodeSubmit \(code)")
        return promoCodes.contains(code)
    }
    func paywallController(_ controller: PaywallController, shouldContinueWebPaymentNavigation product: PaywallProduct) -> Bool {
        record(controller, "shouldContinueWebPaymentNavigation \(product.vendorProductId)")
        return openWebPayments
    }
    func paywallController(_ controller: PaywallController, didFinishWebPaymentNavigation product: PaywallProduct?, error: PaywireError?) {
        record(controller, "didFinishWebPaymentNavigation \(product?.vendorProductId ?? "-") \(error.map { "\($0.code)" } ?? "ok")")
    }
}

/// Fails the test unless `condition` holds within `seconds`.
@MainActor
func assertEventually(_ message: @autoclosure () -> String = "", seconds: Double = 5, file: StaticString = #filePath,
                      line: UInt = #line, _ condition: @MainActor () -> Bool) async
{
    let held = await eventually(seconds, condition)
    XCTAssertTrue(held, message(), file: file, line: line)
}
