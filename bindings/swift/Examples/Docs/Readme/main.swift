// Extracted by tools/docs/swift_examples.py from README.md: do not edit.
// Its ```swift blocks in order; `make docs-swift-examples` writes this again, `make docs-check`
// fails when it differs from the page, `make docs-swift` runs it.

// ---- block 1 of 1
import Foundation
import PaywireKit

let client = try PaywireClient(configurationJSON: String(contentsOfFile: "examples/config.json", encoding: .utf8))
let paywall = try await client.getPaywall(placementId: "onboarding", locale: "fr")
let products = try await client.getPaywallProducts(paywall: paywall)  // prices as Decimal
if let product = products.first, case .success(let profile, _) = try await client.makePurchase(product: product) {
    print(profile.accessLevels["premium"]?.isActive == true)
}
client.close()
