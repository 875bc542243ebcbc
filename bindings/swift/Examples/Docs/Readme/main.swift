// Extracted by tools/docs/swift_examples.py from README.md: do not edit.
// Its ```swift blocks in order; `make docs-swift-examples` writes this again, `make docs-check`
// fails when it differs from the page, `make docs-swift` runs it.

// ---- block 1 of 1
import Foundation
import PaywireKit

let configuration = #"{"profile_id": "readme", "store": {"type": "test", "products": [{"vendor_product_id": "premium_annual", "price": "59.99", "currency_code": "USD", "access_level": "premium", "period": {"unit": "year", "number_of_units": 1}}]}, "fallback": {"bundle": {"format_version": 1, "response_created_at": 1767225600000, "placements": {"onboarding": {"placement_audience_version_id": "onboarding-v1", "variations": [{"variation_id": "a", "paywall_id": "welcome", "weight": 100, "products": ["premium_annual"]}]}}}}}"#
do {
    let client = try PaywireClient(configurationJSON: configuration)
    let paywall = try await client.getPaywall(placementId: "onboarding", locale: "fr")
    let products = try await client.getPaywallProducts(paywall: paywall)  // prices as Decimal
    if let product = products.first, case .success(let profile, _) = try await client.makePurchase(product: product) {
        print(profile.accessLevels["premium"]?.isActive == true)
    }
    client.close()
} catch {
    print("error:", error)  // the library not found, a configuration refused: said, not a crash
}
