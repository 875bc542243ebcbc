// PaywallDemo: a terminal app on PaywireKit. It fetches a paywall and its products, then drives
// a PaywallController through appear, select, purchase, restore and dismissal with the test store
// of the configuration given (examples/config.json by default), printing each delegate call as it
// comes. The paywall is shown with dismiss_on_purchase and dismiss_on_restore off, so it stays
// open for the restore after the purchase, until the app dismisses it.
//
//     swift run --package-path bindings/swift PaywallDemo examples/config.json   (make demo-swift)
//
// It exits 1 when the delegate's calls are not the ones the flow should give, in that order.
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
    print("didAppear()")
    await controller.didAppear()
    print("select(product: \(product.vendorProductId))")
    await controller.select(product: product)
    print("purchase(product: \(product.vendorProductId))")
    await controller.purchase(product: product)
    print("restore()")
    await controller.restore()
    print("didDisappear()")
    await controller.didDisappear()
    client.close()

    let expected = ["paywallControllerDidAppear", "didSelectProduct", "didStartPurchase", "didFinishPurchase",
                    "paywallControllerDidStartRestore", "didFinishRestoreWith", "paywallControllerDidDisappear", "didDismissWith"]
    guard delegate.calls == expected else {
        print("unexpected delegate calls: \(delegate.calls), expected \(expected)")
        exit(1)
    }
    print("demo: \(delegate.calls.count) delegate calls, in the order the flow gives them")
} catch {
    print("demo failed: \(error)")
    exit(1)
}
