import Foundation
import XCTest

@testable import PaywireKit

/// The app's store over StoreKit, as a test double: it describes two products, buys what it is
/// asked to (or fails, when told), and restores one.
final class FakeStore: PaywireStore {
    private let asked = Locked<[String]>([])
    let failPurchases: Bool

    init(failPurchases: Bool = false) { self.failPurchases = failPurchases }

    var requests: [String] { asked.withLock { $0 } }

    func products(withIds productIds: [String]) async throws -> [StoreProduct] {
        asked.withLock { $0.append("products \(productIds.joined(separator: ","))") }
        return [StoreProduct(vendorProductId: "premium_monthly", title: "Premium Monthly", price: DecimalText(Decimal(string: "4.99") ?? 0),
                             currencyCode: "EUR", currencySymbol: "€", period: SubscriptionPeriod(unit: .month, numberOfUnits: 1),
                             accessLevel: "premium"),
                StoreProduct(vendorProductId: "premium_annual", price: DecimalText(Decimal(string: "39.99") ?? 0), currencyCode: "EUR",
                             period: SubscriptionPeriod(unit: .year, numberOfUnits: 1), accessLevel: "premium")]
    }

    func purchase(_ request: StorePurchaseRequest) async throws -> StorePurchase {
        asked.withLock { $0.append("purchase \(request.vendorProductId)") }
        if failPurchases { throw PaywireError(code: .purchaseFailed, message: "card declined", details: ["underlying_error": "declined"]) }
        return .success(transaction: StoreTransaction(transactionId: "sk-1", originalTransactionId: "sk-1",
                                                      vendorProductId: request.vendorProductId))
    }

    func restorePurchases() async throws -> StoreRestore {
        asked.withLock { $0.append("restore") }
        return StoreRestore(productIds: ["premium_monthly"])
    }

    func finish(transactionId: String, vendorProductId: String, consume: Bool) async throws {
        asked.withLock { $0.append("finish \(transactionId)") }
    }
}

/// A store that lists what the user owns now (offline access).
final class EntitlementsStore: PaywireStore {
    func products(withIds productIds: [String]) async throws -> [StoreProduct] { [] }
    func purchase(_ request: StorePurchaseRequest) async throws -> StorePurchase { .userCancelled }
    func restorePurchases() async throws -> StoreRestore { StoreRestore() }
    func finish(transactionId: String, vendorProductId: String, consume: Bool) async throws {}
    func currentEntitlements() async throws -> [StoreTransaction] {
        [StoreTransaction(transactionId: "sk-7", vendorProductId: "premium_monthly", expiresAt: "2099-01-01T00:00:00.000Z")]
    }
}

final class StoreBridgeTests: XCTestCase {
    func testCurrentEntitlementsAreAnsweredAsTransactionsAndAStoreWithoutThemAnswersAnError() async throws {
        let request = HostRequestEvent(seq: 2, requestId: "req-1", kind: .storeCurrentEntitlements, timeoutMs: 1000)
        guard case .result(let result) = await StoreBridge.answer(request, store: EntitlementsStore()) else {
            return XCTFail("the store lists what the user owns")
        }
        XCTAssertEqual(result["transactions"], [StoreTransaction(transactionId: "sk-7", vendorProductId: "premium_monthly",
                                                                 expiresAt: "2099-01-01T00:00:00.000Z").jsonValue])
        // A store that does not implement it answers an error: the core leaves access as it was.
        guard case .error(let code, _, _) = await StoreBridge.answer(request, store: FakeStore()) else {
            return XCTFail("a store without current entitlements answers an error")
        }
        XCTAssertEqual(code, .billingUnavailable)
    }

    func testAHostStoreIsAnsweredThroughThePaywireStore() async throws {
        let store = FakeStore()
        let client = try makeClient(viewsConfiguration(store: ["type": "host"]), store: store)
        defer { client.close() }
        let paywall = try await client.getPaywall(placementId: "main")
        let products = try await client.getPaywallProducts(paywall: paywall)
        XCTAssertEqual(products.map(\.vendorProductId), ["premium_monthly", "premium_annual"])
        XCTAssertEqual(products.first?.price.amount, Decimal(string: "4.99"))
        XCTAssertEqual(products.first?.price.currencyCode, "EUR")
        guard case .success(let profile, let transaction) = try await client.makePurchase(product: try XCTUnwrap(products.first)) else {
            return XCTFail("the store bought it")
        }
        XCTAssertEqual(transaction?.transactionId, "sk-1")
        XCTAssertEqual(profile.accessLevels["premium"]?.isActive, true)
        XCTAssertEqual(store.requests.prefix(2), ["products premium_monthly,premium_annual,lifetime", "purchase premium_monthly"])
    }

    func testAStoreErrorTravelsWithItsCode() async throws {
        let client = try makeClient(viewsConfiguration(store: ["type": "host"]), store: FakeStore(failPurchases: true))
        defer { client.close() }
        let products = try await client.getPaywallProducts(paywall: client.getPaywall(placementId: "main"))
        do {
            _ = try await client.makePurchase(product: try XCTUnwrap(products.first))
            XCTFail("the store declined")
        } catch let error as PaywireError {
            XCTAssertEqual(error.code, .purchaseFailed)
            XCTAssertEqual(error.details["underlying_error"], "declined")
        }
    }

    @MainActor
    func testAControllerOnAHostStoreHearsTheStoresPurchase() async throws {
        let store = FakeStore()
        let client = try makeClient(viewsConfiguration(store: ["type": "host"]), store: store)
        defer { client.close() }
        let paywall = try await client.getPaywall(placementId: "main")
        let products = try await client.getPaywallProducts(paywall: paywall)
        let delegate = RecordingPaywallDelegate()
        let controller = client.paywallController(for: paywall, products: products, delegate: delegate)
        controller.purchase(product: try XCTUnwrap(products.first))
        await assertEventually("\(delegate.calls)") { delegate.calls.contains("didFinishPurchase premium_monthly") }
        // The store describes two of the paywall's three products; the purchase follows the load,
        // and dismisses the paywall (never presented, so no didDisappear).
        XCTAssertEqual(delegate.calls, ["didPartiallyLoadProducts lifetime", "didStartPurchase premium_monthly",
                                        "didFinishPurchase premium_monthly", "didDismissWith purchased"])
        XCTAssertEqual(delegate.lastPurchaseResult?.profile?.accessLevels["premium"]?.isActive, true)
    }
}
