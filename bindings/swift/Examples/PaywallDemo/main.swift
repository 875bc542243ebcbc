// PaywallDemo: a terminal app on PaywireKit. It fetches a paywall and its products, then drives
// a PaywallController through appear, select, purchase, restore and dismissal with the test store
// of the configuration given (examples/config.json by default), printing each delegate call as it
// comes. The paywall is shown with dismiss_on_purchase and dismiss_on_restore off, so it stays
// open for the restore after the purchase, until the app dismisses it.
//
//     swift run --package-path bindings/swift PaywallDemo examples/config.json   (make demo-swift)
//
// The controller's actions are synchronous calls on the main actor (this top-level code runs
// there): each returns once the delegate has heard what it caused, so the calls print between
// the actions that caused them. It exits 1 when the delegate's calls are not the ones the flow
// should give, in that order, or not by the time the action that caused them returned.
import Foundation
import PaywireKit

/// Prints every delegate call and keeps its name, in order.
@MainActor
final class PrintingDelegate: PaywallControllerDelegate, PaywireDelegate {
    private(set) var calls: [String] = []

    private func heard(_ call: String, _ detail: String = "") {
        calls.append(call)
        print("  delegate: \(call)\(detail.isEmpty ? "" : " " + detail)")
    }

    func paywallControllerDidAppear(_ controller: PaywallController) { heard("paywallControllerDidAppear") }
    func paywallControllerDidDisappear(_ controller: PaywallController) { heard("paywallControllerDidDisappear") }
    func paywallController(_ controller: PaywallController, didDismissWith reason: DismissReason) {
        heard("didDismissWith", reason.rawValue)
    }
    func paywallController(_ controller: PaywallController, didSelectProduct product: PaywallProduct) {
        heard("didSelectProduct", product.vendorProductId)
    }
    func paywallController(_ controller: PaywallController, didStartPurchase product: PaywallProduct) {
        heard("didStartPurchase", product.vendorProductId)
    }
    func paywallController(_ controller: PaywallController, didFinishPurchase product: PaywallProduct, purchaseResult: PurchaseResult) {
        switch purchaseResult {
        case .success(let profile, let transaction):
            let levels = profile.accessLevels.filter { $0.value.isActive }.keys.sorted().joined(separator: ",")
            heard("didFinishPurchase", "\(product.vendorProductId) success, transaction \(transaction?.transactionId ?? "-"), access [\(levels)]")
        case .userCancelled: heard("didFinishPurchase", "\(product.vendorProductId) cancelled by the user")
        case .pending: heard("didFinishPurchase", "\(product.vendorProductId) pending")
        }
    }
    func paywallController(_ controller: PaywallController, didFailPurchase product: PaywallProduct, error: PaywireError) {
        heard("didFailPurchase", "\(product.vendorProductId) \(error.code): \(error.message)")
    }
    func paywallControllerDidStartRestore(_ controller: PaywallController) { heard("paywallControllerDidStartRestore") }
    func paywallController(_ controller: PaywallController, didFinishRestoreWith profile: Profile) {
        heard("didFinishRestoreWith", "profile \(profile.profileId), access [\(profile.accessLevels.keys.sorted().joined(separator: ","))]")
    }
    func paywallController(_ controller: PaywallController, didFailRestoreWith error: PaywireError) {
        heard("didFailRestoreWith", "\(error.code): \(error.message)")
    }
    func paywallController(_ controller: PaywallController, didFailRenderingWith error: PaywireError) {
        heard("didFailRenderingWith", "\(error.code): \(error.message)")
    }
    func paywallController(_ controller: PaywallController, onPostPurchaseDeepLink url: String) { heard("onPostPurchaseDeepLink", url) }
    func paywallController(_ controller: PaywallController, onPostPurchaseNextStep stepId: String) { heard("onPostPurchaseNextStep", stepId) }

    func didLoadLatestProfile(_ profile: Profile) {
        let active = profile.accessLevels.filter { $0.value.isActive }.keys.sorted()
        print("  profile: \(profile.profileId), active access levels [\(active.joined(separator: ","))]")
    }
}

let configPath = CommandLine.arguments.dropFirst().first ?? "examples/config.json"
do {
    let client = try PaywireClient(configurationJSON: try String(contentsOfFile: configPath, encoding: .utf8))
    let delegate = PrintingDelegate()
    client.delegate = delegate
    let library = try PaywireClient.library()
    print("PaywireKit on libpaywire \(library.version) (\(library.path))")

    let paywall = try await client.getPaywall(placementId: "settings", locale: "en")
    print("paywall \(paywall.paywallId) (\(paywall.paywallName)), variation \(paywall.variationId)")
    let products = try await client.getPaywallProducts(paywall: paywall)
    for product in products {
        print("  product \(product.vendorProductId): \(product.localizedTitle), \(product.price.localizedString) (amount \(product.price.amount))")
    }
    guard let product = products.first else {
        print("the paywall has no products")
        exit(1)
    }

    var shown = paywall
    shown.dismissOnPurchase = false
    shown.dismissOnRestore = false
    let controller = client.paywallController(for: shown, products: products, delegate: delegate)

    /// Runs one action and checks that the delegate heard `expected` by the time it returned.
    func step(_ name: String, expecting expected: [String], _ action: () -> Void) {
        print(name)
        let before = delegate.calls.count
        action()
        let heard = Array(delegate.calls.dropFirst(before))
        guard heard == expected else {
            print("\(name) returned after the delegate heard \(heard), expected \(expected)")
            exit(1)
        }
    }
    step("didAppear()", expecting: ["paywallControllerDidAppear"]) { controller.didAppear() }
    step("select(product: \(product.vendorProductId))", expecting: ["didSelectProduct"]) { controller.select(product: product) }
    step("purchase(product: \(product.vendorProductId))", expecting: ["didStartPurchase", "didFinishPurchase"]) {
        controller.purchase(product: product)
    }
    step("restore()", expecting: ["paywallControllerDidStartRestore", "didFinishRestoreWith"]) { controller.restore() }
    step("didDisappear()", expecting: ["paywallControllerDidDisappear", "didDismissWith"]) { controller.didDisappear() }
    client.close()
    print("demo: \(delegate.calls.count) delegate calls, each heard before the action that caused it returned")
} catch {
    print("demo failed: \(error)")
    exit(1)
}
