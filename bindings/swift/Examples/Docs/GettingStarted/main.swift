// Extracted by tools/docs/swift_examples.py from docs/getting-started/swift.md: do not edit.
// Its ```swift blocks in order; `make docs-swift-examples` writes this again, `make docs-check`
// fails when it differs from the page, `make docs-swift` runs it.

// ---- block 1 of 8
import Foundation
import PaywireKit

let configuration = """
    {"profile_id": "quickstart-user",
     "store": {"type": "test", "products": [
       {"vendor_product_id": "premium_annual", "title": "Premium, yearly", "price": "59.99", "currency_code": "USD",
        "access_level": "premium", "period": {"unit": "year", "number_of_units": 1}},
       {"vendor_product_id": "premium_monthly", "title": "Premium, monthly", "price": "9.99", "currency_code": "USD",
        "access_level": "premium", "period": {"unit": "month", "number_of_units": 1}}]},
     "fallback": {"bundle": {"format_version": 1, "response_created_at": 1767225600000,
       "placements": {"onboarding": {"placement_audience_version_id": "onboarding-v1", "variations": [
         {"variation_id": "annual-first", "paywall_id": "welcome", "weight": 100,
          "products": ["premium_annual", "premium_monthly"],
          "remote_configs": [{"lang": "en", "data": {"title": "Unlock everything"}}]}]}},
       "onboardings": {"welcome": {"placement_audience_version_id": "welcome-v1", "variations": [
         {"variation_id": "welcome-default", "onboarding_id": "welcome_quiz", "weight": 100,
          "url": "https://onboarding.example.com/welcome_quiz/index.html"}]}}}}}
    """

let client: PaywireClient
do {
    client = try PaywireClient(configurationJSON: configuration)
} catch {
    print("cannot start Paywire:", error)  // no library, another ABI, a configuration refused: said, not a crash
    exit(1)
}
let paywall = try await client.getPaywall(placementId: "onboarding", locale: "en")
let products = try await client.getPaywallProducts(paywall: paywall)
for product in products {
    // price.amount is a Decimal read from the number's text: 9.99 stays 9.99.
    print(product.vendorProductId, product.localizedTitle, product.price.amount, product.price.localizedString)
}
try await client.logShowPaywall(paywall)

// ---- block 2 of 8
do {
    _ = try await client.getPaywall(placementId: "no_such_placement")
} catch let error as PaywireError {
    print(error.code == .notFound, error.message, error.details)
}

// ---- block 3 of 8
if let product = products.first {
    switch try await client.makePurchase(product: product) {
    case .success(let profile, let transaction):
        print("bought", transaction?.transactionId ?? "-", profile.accessLevels["premium"]?.isActive == true)
    case .userCancelled:
        print("cancelled: a result, not an error")
    case .pending:
        print("pending: the profile changes when the store settles it")
    }
}
let restored = try await client.restorePurchases()
print("restored access:", restored.accessLevels.keys.sorted())

// ---- block 4 of 8
final class ProfileWatcher: PaywireDelegate {
    func didLoadLatestProfile(_ profile: Profile) {
        print("active access:", profile.accessLevels.filter { $0.value.isActive }.keys.sorted())
    }
}
let watcher = ProfileWatcher()
client.delegate = watcher  // held weakly; hears the current profile at once, then each change

let events = Task {
    for await event in client.events {
        switch event {
        case .paywallViewDidSelectProduct(let selected): print("event: selected", selected.productId)
        case .unknown(let name, _): print("event of a newer library:", name)
        default: break
        }
    }
}

// ---- block 5 of 8
final class PaywallScreen: PaywallControllerDelegate {
    func paywallControllerDidAppear(_ controller: PaywallController) { print("delegate: appeared") }
    func paywallController(_ controller: PaywallController, didSelectProduct product: PaywallProduct) {
        print("delegate: selected", product.vendorProductId)
    }
    func paywallController(_ controller: PaywallController, didStartPurchase product: PaywallProduct) {
        print("delegate: buying", product.vendorProductId)
    }
    func paywallController(_ controller: PaywallController, didFinishPurchase product: PaywallProduct,
                           purchaseResult: PurchaseResult) {
        print("delegate: finished, cancelled:", purchaseResult.isPurchaseCancelled)
    }
    func paywallController(_ controller: PaywallController, didFailPurchase product: PaywallProduct, error: PaywireError) {
        print("delegate: purchase failed", error.code)
    }
    func paywallController(_ controller: PaywallController, didFinishRestoreWith profile: Profile) {
        print("delegate: restored", profile.accessLevels.keys.sorted())
    }
    func paywallController(_ controller: PaywallController, didFailRestoreWith error: PaywireError) {
        print("delegate: restore failed", error.code)
    }
    func paywallController(_ controller: PaywallController, didFailRenderingWith error: PaywireError) {
        print("delegate: cannot show the paywall", error.code)
    }
}

let screen = PaywallScreen()
let controller = client.paywallController(for: paywall, products: products, delegate: screen)
controller.didAppear()
if let annual = products.first(where: { $0.vendorProductId == "premium_annual" }) {
    controller.select(product: annual)
    controller.purchase(product: annual)  // "delegate: buying", then "delegate: finished", before it returns
}
controller.restore()

// ---- block 6 of 8
final class OnboardingScreen: OnboardingControllerDelegate {
    func onboardingController(_ controller: OnboardingController, onCustomAction action: OnboardingCustomAction) {
        print("onboarding: custom action", action.actionId)
    }
    func onboardingController(_ controller: OnboardingController, didFailWithError error: PaywireError) {
        print("onboarding failed:", error)
    }
}

let onboarding = try await client.getOnboarding(placementId: "welcome")
let onboardingScreen = OnboardingScreen()
let onboardingController = client.onboardingController(for: onboarding, delegate: onboardingScreen)
onboardingController.ingest(message: """
    {"type": "custom", "actionId": "allowNotifications",
     "meta": {"onboardingId": "\(onboarding.onboardingId)", "screenClientId": "welcome", "screenIndex": 0, "screensTotal": 1}}
    """)

// ---- block 7 of 8
#if canImport(StoreKit)
import StoreKit

struct StoreKitStore: PaywireStore {
    func products(withIds productIds: [String]) async throws -> [StoreProduct] {
        try await Product.products(for: productIds).map { product in
            StoreProduct(vendorProductId: product.id, title: product.displayName, description: product.description,
                         price: DecimalText(product.price), currencyCode: product.priceFormatStyle.currencyCode)
        }
    }

    func purchase(_ request: StorePurchaseRequest) async throws -> StorePurchase {
        guard let product = try await Product.products(for: [request.vendorProductId]).first else {
            throw PaywireError(code: .purchaseFailed, message: "the App Store has no \(request.vendorProductId)")
        }
        switch try await product.purchase() {
        case .success(let verification):
            let transaction = try verification.payloadValue
            return .success(transaction: StoreTransaction(
                transactionId: String(transaction.id), originalTransactionId: String(transaction.originalID),
                vendorProductId: transaction.productID, verification: verification.jwsRepresentation))
        case .userCancelled:
            return .userCancelled
        default:
            return .pending()
        }
    }

    func restorePurchases() async throws -> StoreRestore {
        try await AppStore.sync()
        var restored: [String] = []
        for await entitlement in Transaction.currentEntitlements {
            if case .verified(let transaction) = entitlement { restored.append(transaction.productID) }
        }
        return StoreRestore(productIds: restored)
    }

    func currentEntitlements() async throws -> [StoreTransaction] {
        var owned: [StoreTransaction] = []
        for await entitlement in Transaction.currentEntitlements {
            guard case .verified(let transaction) = entitlement else { continue }
            owned.append(StoreTransaction(
                transactionId: String(transaction.id), originalTransactionId: String(transaction.originalID),
                vendorProductId: transaction.productID, expiresAt: transaction.expirationDate?.ISO8601Format()))
        }
        return owned
    }

    func finish(transactionId: String, vendorProductId: String, consume: Bool) async throws {
        for await unfinished in Transaction.unfinished {
            if case .verified(let transaction) = unfinished, String(transaction.id) == transactionId { await transaction.finish() }
        }
    }
}
#endif

// ---- block 8 of 8
client.close()
await events.value  // the event stream finishes with the client
print("done")
