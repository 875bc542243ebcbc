import Foundation
import XCTest

@testable import PaywireKit

final class ClientTests: XCTestCase {
    func testALibraryOfTheSameMajorAndAMinorAtLeastOursIsAccepted() async throws {
        for (library, binding) in [("1.1", "1.1"), ("1.2", "1.1"), ("1.10", "1.9")] {
            XCTAssertNil(SchemaVersion.mismatch(library: library, binding: binding, path: "lib"), "\(library) for \(binding)")
        }
        let client = try makeClient()
        defer { client.close() }
        let version = try await client.getSdkVersion()
        XCTAssertEqual(version.schemaVersion, PaywireSchema.version)
    }

    func testAnyOtherLibraryIsRefusedNamingBoth() {
        for (library, binding) in [("1.0", "1.1"), ("2.0", "1.1"), (nil, "1.1"), ("1", "1.1"), ("1.x", "1.1")] as [(String?, String)] {
            let refused = SchemaVersion.mismatch(library: library, binding: binding, path: "lib")
            XCTAssertEqual(refused?.status, "VERSION_MISMATCH", "\(String(describing: library)) for \(binding)")
            XCTAssertEqual(refused?.libraryVersion, library)
            XCTAssertEqual(refused?.bindingVersion, binding)
            XCTAssertTrue(refused?.message.contains(library ?? "(none)") == true && refused?.message.contains(binding) == true)
        }
    }

    func testTypedCallsAnswerWithTheSchemasModels() async throws {
        let client = try makeClient()
        defer { client.close() }
        let paywall = try await client.getPaywall(placementId: "main", locale: "en")
        XCTAssertEqual(paywall.placement.developerId, "main")
        let products = try await client.getPaywallProducts(paywall: paywall)
        XCTAssertEqual(products.map(\.vendorProductId), ["premium_monthly", "premium_annual", "lifetime"])
        XCTAssertEqual(products.first?.price.amount, Decimal(string: "9.99"))
        XCTAssertEqual(products.first?.localizedPrice, "$9.99")
        XCTAssertEqual(products.first?.localizedSubscriptionPeriod, "1 month")
        XCTAssertNil(products.last?.localizedSubscriptionPeriod, "lifetime is no subscription")
        let product = try XCTUnwrap(products.first)
        guard case .success(let profile, let transaction) = try await client.makePurchase(product: product) else {
            return XCTFail("the test store buys it")
        }
        XCTAssertEqual(profile.accessLevels["premium"]?.isActive, true)
        XCTAssertNotNil(transaction?.transactionId)
        let restored = try await client.restorePurchases()
        XCTAssertEqual(restored.profileId, "profile-swift-tests")
        let afterRestore = try await client.getProfile()
        XCTAssertEqual(afterRestore.accessLevels["premium"]?.isActive, true)
        try await client.logShowPaywall(paywall)
        try await client.identify("user-1")
        let identified = try await client.getProfile()
        XCTAssertEqual(identified.customerUserId, "user-1")
    }

    func testAFailedCallThrowsPaywireErrorWithItsWireCode() async throws {
        let client = try makeClient()
        defer { client.close() }
        do {
            _ = try await client.getPaywall(placementId: "no_such_placement")
            XCTFail("no such placement")
        } catch let error as PaywireError {
            XCTAssertEqual(error.code, .notFound)
            XCTAssertFalse(error.message.isEmpty)
        }
    }

    func testAConfigurationTheLibraryRefusesThrowsNamingTheField() throws {
        XCTAssertThrowsError(try PaywireClient(configurationJSON: #"{"event_queue_limit": "many"}"#)) { error in
            XCTAssertEqual((error as? PaywireError)?.code, .wrongParam)
            XCTAssertEqual((error as? PaywireError)?.details["field"]?.stringValue, "event_queue_limit")
        }
        XCTAssertThrowsError(try PaywireClient(configurationJSON: "{\"profile_id\": \"a\u{0}b\"}"))
    }

    func testACallWaitingWhenTheClientClosesThrowsClosed() async throws {
        // A host store with no PaywireStore: the products call waits for an answer that never comes.
        let client = try makeClient(viewsConfiguration(store: ["type": "host"], extra: ["host_request_timeout_ms": 60_000]))
        let paywall = try await client.getPaywall(placementId: "main")
        let waiting = Task { try await client.getPaywallProducts(paywall: paywall) }
        try await Task.sleep(nanoseconds: 200_000_000)
        let started = Date()
        client.close()
        do {
            _ = try await waiting.value
            XCTFail("the call cannot succeed once the client is closed")
        } catch let error as PaywireError {
            XCTAssertEqual(error.code, .closed)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "resumed by close, not by the request's deadline")
        do {
            _ = try await client.getProfile()
            XCTFail("a closed client takes no calls")
        } catch let error as PaywireError {
            XCTAssertEqual(error.code, .closed)
        }
    }

    func testARefusedAsyncCallThrowsAtOnceAndBusyIsItsOwnCode() {
        let busy = PaywireError.refused(status: -12, name: "BUSY")
        XCTAssertEqual(busy.code, .busy)
        XCTAssertEqual(busy.details["status"], -12)
        XCTAssertEqual(PaywireError.refused(status: -8, name: "CLOSED").code, .closed)
        XCTAssertEqual(PaywireError.refused(status: -99, name: "UNKNOWN").code, .internal, "an unknown negative status reads as FAILED")
    }

    func testCallsOverTheAsyncCallLimitThrowBusyAndTheRestClosedOnClose() async throws {
        let config = viewsConfiguration(store: ["type": "host"], extra: ["host_request_timeout_ms": 60_000, "async_call_limit": 2])
        let client = try makeClient(config)
        let paywall = try await client.getPaywall(placementId: "main")
        let calls = (0..<5).map { _ in Task { try await client.getPaywallProducts(paywall: paywall) } }
        try await Task.sleep(nanoseconds: 300_000_000)
        client.close()
        var codes: [String] = []
        for call in calls {
            do {
                _ = try await call.value
            } catch let error as PaywireError {
                codes.append(error.code.rawValue)
            }
        }
        XCTAssertEqual(codes.filter { $0 == "busy" }.count, 3, "\(codes)")
        XCTAssertEqual(codes.filter { $0 == "closed" }.count, 2, "\(codes)")
    }

    func testATicketResumesItsWaiterExactlyOnceWhateverSettlesIt() async {
        let early = CallTicket()
        XCTAssertTrue(early.settle(.success(1)))
        XCTAssertFalse(early.settle(.success(2)), "a second settlement is ignored")
        let outcome = await early.outcome
        XCTAssertEqual(try? outcome.get(), 1)

        let late = CallTicket()
        let waiter = Task { await late.outcome }
        try? await Task.sleep(nanoseconds: 50_000_000)
        XCTAssertTrue(late.settle(.failure(.closed)))
        XCTAssertFalse(late.settle(.success(3)))
        guard case .failure(let error) = await waiter.value else { return XCTFail("settled with closed") }
        XCTAssertEqual(error.code, .closed)
    }

    func testEventsComeTypedAndInSeqOrder() async throws {
        let client = try makeClient()
        defer { client.close() }
        let events = client.events
        let paywall = try await client.getPaywall(placementId: "main")
        let view = try await client.createPaywallView(paywall: paywall)
        try await client.presentPaywallView(viewId: view.id)
        try await client.dismissPaywallView(viewId: view.id, reason: .programmatic)
        var names: [String] = []
        var seqs: [Int] = []
        // The stream may or may not start early enough to see the start's did_load_latest_profile.
        for await event in events where event.name != "did_load_latest_profile" {
            names.append(event.name)
            seqs.append(event.seq ?? 0)
            if case .paywallViewDidDismiss(let dismissed) = event {
                XCTAssertEqual(dismissed.reason, .programmatic)
                break
            }
        }
        XCTAssertEqual(names, ["paywall_view_did_appear", "paywall_view_did_disappear", "paywall_view_did_dismiss"])
        XCTAssertEqual(seqs, seqs.sorted())
        XCTAssertFalse(names.contains("call_result"), "this binding's own call results are not passed on")
    }

    func testClosingFinishesTheEventStreams() async throws {
        let client = try makeClient()
        let events = client.events
        client.close()
        for await _ in events {}
    }

    @MainActor
    func testTheDelegateHearsEachProfileOnceFromTheLatest() async throws {
        final class Listener: PaywireDelegate {
            var profiles: [Profile] = []
            func didLoadLatestProfile(_ profile: Profile) { profiles.append(profile) }
        }
        let client = try makeClient()
        defer { client.close() }
        let listener = Listener()
        _ = try await client.getProfile()
        client.delegate = listener
        await assertEventually { listener.profiles.count == 1 }
        let paywall = try await client.getPaywall(placementId: "main")
        let products = try await client.getPaywallProducts(paywall: paywall)
        let product = try XCTUnwrap(products.first)
        _ = try await client.makePurchase(product: product)
        await assertEventually { listener.profiles.last?.accessLevels["premium"]?.isActive == true }
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(listener.profiles.count, 2, "the profile at start, then the one the purchase gave")
    }

    func testTheLibraryIsFoundAsEveryBindingFindsIt() throws {
        XCTAssertEqual(LibraryLocator.candidates(environment: ["PAYWIRE_LIBRARY": "/opt/x/libpaywire.so.1"]), ["/opt/x/libpaywire.so.1"])
        let found = LibraryLocator.candidates(environment: ["PAYWIRE_PREFIX": "/opt/pw"], executable: "/a/b/app",
                                              sourceFile: "/src/checkout/bindings/swift/Sources/PaywireKit/Native/LibraryLocator.swift")
        XCTAssertEqual(found.first, "/a/b/build/lib/libpaywire.so.1")
        XCTAssert(found.contains("/src/checkout/build/lib/libpaywire.so.1"), "the checkout the package came from")
        XCTAssertEqual(Array(found.suffix(4)), ["libpaywire.so.1", "/opt/pw/lib/libpaywire.so.1", "/usr/local/lib/libpaywire.so.1",
                                                 "/usr/lib/libpaywire.so.1"])
        let library = try PaywireClient.library()
        XCTAssertEqual(library.abiVersion, 1)
        XCTAssertFalse(library.version.isEmpty)
    }
}
