import Testing
@testable import PaywireCore

/// The paywall view machine on its own: each input's actions, in order, for every flow the
/// seeds describe.
@Suite struct PaywallViewMachineTests {
    static let monthly = StoreProduct(vendorProductId: "monthly", localizedTitle: "Monthly", localizedDescription: "",
                                      price: Price(amount: JSONNumber(10), currencyCode: "USD", currencySymbol: "$"),
                                      period: SubscriptionPeriod(unit: .month, numberOfUnits: 1), introOffer: nil, accessLevel: "premium")
    static let annual = StoreProduct(vendorProductId: "annual", localizedTitle: "Annual", localizedDescription: "",
                                     price: Price(amount: JSONNumber(60), currencyCode: "USD", currencySymbol: "$"),
                                     period: SubscriptionPeriod(unit: .year, numberOfUnits: 1), introOffer: nil, accessLevel: "premium")
    static let failure = WireError(.purchaseFailed, "declined")

    /// A paywall with products `monthly` and `annual`; `extra` adds members (JSON text).
    static func paywall(_ extra: String = "") -> PaywallReference {
        let text = #"{"placement":{"developer_id":"main","ab_test_name":"t"},"variation_id":"v","paywall_name":"P","#
            + #""products":[{"vendor_product_id":"monthly"},{"vendor_product_id":"annual"}]"# + (extra.isEmpty ? "" : "," + extra) + "}"
        guard let value = try? JSONParser.parse(text), let fields = try? Fields(value, path: "paywall"),
              let reference = try? PaywallReference(fields) else { preconditionFailure("test paywall does not parse") }
        return reference
    }

    /// A view over a test catalog (the store describes both products without a fetch).
    static func view(_ environment: PaywallViewMachine.Environment = .init(), paywall: PaywallReference = paywall(),
                     catalog: [StoreProduct] = [monthly, annual]) -> PaywallViewMachine {
        PaywallViewMachine(info: ViewInfo(id: "paywall-view-1", placementId: "main", abTestName: "t", variationId: "v"),
                           paywall: paywall, environment: environment, catalog: catalog)
    }

    static let hostStore = PaywallViewMachine.Environment(describesProductsOnlyAfterFetch: true, productsRetryDelayMilliseconds: 50)
    static let noStore = PaywallViewMachine.Environment(storeUnavailable: WireError(.billingUnavailable, "none"))

    func product(_ id: String, in view: PaywallViewMachine, described: Bool = true) -> ViewProduct {
        ViewProduct(productId: id, product: described ? [Self.monthly, Self.annual].first { $0.vendorProductId == id } : nil,
                    paywall: view.paywall)
    }

    func names(_ actions: [PaywallViewAction]) -> [String] {
        actions.map { action in
            switch action {
            case .emit(let event): return event.name
            case .store(.fetchProducts): return "store.fetchProducts"
            case .store(.purchase): return "store.purchase"
            case .store(.restore): return "store.restore"
            case .ask(let question): return question.kind.rawValue
            case .grantPurchase: return "grant"
            case .grantRestored: return "grant_restored"
            case .schedule: return "schedule"
            }
        }
    }

    // MARK: - Lifecycle and dismissal

    @Test func presentingEmitsDidAppear() throws {
        var view = Self.view()
        #expect(try view.present() == [.emit(.didAppear)])
        #expect(view.phase == .presented)
    }

    @Test func presentingTwiceIsRefused() throws {
        var view = Self.view()
        _ = try view.present()
        #expect(throws: WireError.self) { try view.present() }
    }

    @Test func dismissingAPresentedViewDisappearsThenDismisses() throws {
        var view = Self.view()
        _ = try view.present()
        #expect(try view.dismiss(.tapped_outside) == [.emit(.didDisappear), .emit(.didDismiss(.tapped_outside))])
    }

    @Test func dismissingAViewNeverPresentedOnlyDismisses() throws {
        var view = Self.view()
        #expect(try view.dismiss(.programmatic) == [.emit(.didDismiss(.programmatic))])
    }

    @Test(arguments: DismissReason.allCases)
    func everyDismissReasonIsReportedAsGiven(_ reason: DismissReason) throws {
        var view = Self.view()
        #expect(try view.dismiss(reason) == [.emit(.didDismiss(reason))])
    }

    @Test func dismissingTwiceIsRefusedAndChangesNothing() throws {
        var view = Self.view()
        _ = try view.dismiss(.programmatic)
        #expect(throws: WireError.self) { try view.dismiss(.dismissed) }
        #expect(view.phase == .dismissed)
    }

    @Test func presentingADismissedViewIsRefused() throws {
        var view = Self.view()
        _ = try view.dismiss(.programmatic)
        #expect(throws: WireError.self) { try view.present() }
    }

    // MARK: - Actions and selection

    @Test func closeActionIsReportedThenDismisses() throws {
        var view = Self.view()
        _ = try view.present()
        #expect(view.perform(.close) == [.emit(.didPerformAction(.close)), .emit(.didDisappear), .emit(.didDismiss(.dismissed))])
    }

    @Test func systemBackDismissesLikeClose() {
        var view = Self.view()
        #expect(view.perform(.systemBack) == [.emit(.didPerformAction(.systemBack)), .emit(.didDismiss(.dismissed))])
    }

    @Test func openURLAndCustomActionsLeaveTheViewOpen() {
        var view = Self.view()
        #expect(view.perform(.openURL("https://x")) == [.emit(.didPerformAction(.openURL("https://x")))])
        #expect(view.perform(.custom("faq")) == [.emit(.didPerformAction(.custom("faq")))])
        #expect(view.phase == .created)
    }

    @Test func closeOnADismissedViewIsOnlyReported() throws {
        var view = Self.view()
        _ = try view.dismiss(.programmatic)
        #expect(view.perform(.close) == [.emit(.didPerformAction(.close))])
    }

    @Test func selectingAProductNotOnThePaywallIsRefused() {
        #expect(throws: WireError.self) { try Self.view().selectProduct("weekly") }
    }

    @Test func selectingADescribedProductCarriesIt() throws {
        let view = Self.view()
        #expect(try view.selectProduct("annual") == [.emit(.didSelectProduct(productId: "annual", product: product("annual", in: view)))])
    }

    @Test func selectingAProductTheStoreHasNotDescribedCarriesOnlyItsId() throws {
        let view = Self.view(Self.hostStore, catalog: [])
        #expect(try view.selectProduct("annual") == [.emit(.didSelectProduct(productId: "annual", product: nil))])
    }

    // MARK: - Purchases

    @Test func purchaseStartsThenAsksTheStore() throws {
        var view = Self.view()
        let bought = product("monthly", in: view)
        #expect(try view.purchase("monthly") == [.emit(.didStartPurchase(bought)), .store(.purchase(bought))])
    }

    @Test func purchaseSuccessGrantsThenFinishesThenDismisses() throws {
        var view = Self.view()
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        #expect(view.storeReplied(.purchase(bought), .purchase(.succeeded(expiresAt: nil))) == [
            .grantPurchase(bought, expiresAt: nil), .emit(.didFinishPurchase(bought, .success)), .emit(.didDismiss(.purchased)),
        ])
    }

    @Test func purchaseSuccessOnAPresentedViewDisappearsBeforeDismissing() throws {
        var view = Self.view()
        _ = try view.present()
        _ = try view.purchase("monthly")
        let actions = view.storeReplied(.purchase(product("monthly", in: view)), .purchase(.succeeded(expiresAt: 5)))
        #expect(names(actions) == ["grant", "paywall_view_did_finish_purchase", "paywall_view_did_disappear", "paywall_view_did_dismiss"])
    }

    @Test func purchaseSuccessKeepsTheStoresExpiry() throws {
        var view = Self.view()
        let bought = product("annual", in: view)
        _ = try view.purchase("annual")
        #expect(view.storeReplied(.purchase(bought), .purchase(.succeeded(expiresAt: 99))).first == .grantPurchase(bought, expiresAt: 99))
    }

    @Test func purchaseSuccessWithDismissOnPurchaseOffKeepsTheViewOpen() throws {
        var view = Self.view(paywall: Self.paywall(#""dismiss_on_purchase":false"#))
        _ = try view.purchase("monthly")
        let actions = view.storeReplied(.purchase(product("monthly", in: view)), .purchase(.succeeded(expiresAt: nil)))
        #expect(names(actions) == ["grant", "paywall_view_did_finish_purchase"])
        #expect(view.phase == .created)
    }

    @Test func purchaseSuccessRequestsTheDeepLinkBeforeDismissing() throws {
        var view = Self.view(paywall: Self.paywall(#""post_purchase":{"type":"deep_link","url":"app://welcome"}"#))
        _ = try view.purchase("monthly")
        let actions = view.storeReplied(.purchase(product("monthly", in: view)), .purchase(.succeeded(expiresAt: nil)))
        #expect(actions[2] == .emit(.didRequestDeepLink(url: "app://welcome")))
        #expect(names(actions).last == "paywall_view_did_dismiss")
    }

    @Test func purchaseSuccessRequestsTheNextStep() throws {
        var view = Self.view(paywall: Self.paywall(#""post_purchase":{"type":"next_step","step_id":"tour"}"#))
        _ = try view.purchase("monthly")
        let actions = view.storeReplied(.purchase(product("monthly", in: view)), .purchase(.succeeded(expiresAt: nil)))
        #expect(actions.contains(.emit(.didRequestNextStep(stepId: "tour"))))
    }

    @Test func cancelledPurchaseFinishesAsUserCancelledAndGrantsNothing() throws {
        var view = Self.view()
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        #expect(view.storeReplied(.purchase(bought), .purchase(.cancelled)) == [.emit(.didFinishPurchase(bought, .user_cancelled))])
    }

    @Test func pendingPurchaseFinishesAsPendingAndGrantsNothing() throws {
        var view = Self.view()
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        #expect(view.storeReplied(.purchase(bought), .purchase(.pending)) == [.emit(.didFinishPurchase(bought, .pending))])
    }

    @Test func failedPurchaseReportsTheErrorAndKeepsTheViewOpen() throws {
        var view = Self.view()
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        #expect(view.storeReplied(.purchase(bought), .purchase(.failed(Self.failure))) == [.emit(.didFailPurchase(bought, Self.failure))])
        #expect(view.phase == .created)
    }

    @Test func aSecondPurchaseWhileOneIsInFlightIsRefused() throws {
        var view = Self.view()
        _ = try view.purchase("monthly")
        #expect(throws: WireError.self) { try view.purchase("annual") }
    }

    @Test func aPurchaseCanStartAgainOnceTheFirstEnded() throws {
        var view = Self.view()
        _ = try view.purchase("monthly")
        _ = view.storeReplied(.purchase(product("monthly", in: view)), .purchase(.cancelled))
        #expect(names(try view.purchase("annual")) == ["paywall_view_did_start_purchase", "store.purchase"])
    }

    @Test func purchaseOnADismissedViewIsRefused() throws {
        var view = Self.view()
        _ = try view.dismiss(.programmatic)
        #expect(throws: WireError.self) { try view.purchase("monthly") }
    }

    @Test func purchaseOfAProductNotOnThePaywallIsRefused() {
        var view = Self.view()
        #expect(throws: WireError.self) { try view.purchase("weekly") }
    }

    @Test func purchaseWithNoStoreFailsAtOnceWithoutStarting() throws {
        var view = Self.view(Self.noStore)
        let actions = try view.purchase("monthly")
        #expect(actions == [.emit(.didFailPurchase(product("monthly", in: view), WireError(.billingUnavailable, "none")))])
        #expect(names(try view.purchase("monthly")) == ["paywall_view_did_fail_purchase"])
    }

    @Test func purchaseWithAHostStoreLoadsTheProductsFirst() throws {
        var view = Self.view(Self.hostStore, catalog: [])
        #expect(try view.purchase("monthly") == [.store(.fetchProducts(["monthly", "annual"]))])
        #expect(throws: WireError.self) { try view.purchase("annual") }
    }

    @Test func purchaseWaitingForProductsStartsWhenTheyLoad() throws {
        var view = Self.view(Self.hostStore, catalog: [])
        _ = try view.purchase("monthly")
        let actions = view.storeReplied(.fetchProducts(["monthly", "annual"]), .products(.success([Self.monthly])))
        let bought = product("monthly", in: view)
        #expect(actions == [.emit(.didPartiallyLoadProducts(failedProductIds: ["annual"])), .emit(.didStartPurchase(bought)), .store(.purchase(bought))])
    }

    @Test func purchaseWaitingForProductsIsDroppedWhenTheHostDeclinesTheRetry() throws {
        var view = Self.view(Self.hostStore, catalog: [])
        _ = try view.purchase("monthly")
        let error = WireError(.productsLoadingFailed, "offline")
        _ = view.storeReplied(.fetchProducts(["monthly", "annual"]), .products(.failure(error)))
        let answer = try HostAnswer(Fields(JSONObject([("result", .object(JSONObject([("retry", .bool(false))])))])))
        #expect(view.hostAnswered(.productsRetry(error, retryDelayMilliseconds: 50), .answered(answer)) == [])
        #expect(names(try view.purchase("monthly")) == ["store.fetchProducts"])
    }

    @Test func purchaseWhileProductsAreLoadingAsksTheStoreOnlyOnce() throws {
        var view = Self.view(Self.hostStore, catalog: [])
        _ = view.created(checkLayout: true, preloadProducts: true)
        #expect(try view.purchase("monthly") == [])
    }

    // MARK: - Observer mode

    static let observer = PaywallViewMachine.Environment(observerMode: true)

    func hostResult(_ members: [(key: String, value: JSONValue)]) throws -> HostOutcome {
        .answered(try HostAnswer(Fields(JSONObject([("result", .object(JSONObject(members)))]))))
    }

    @Test func observerModeAsksTheAppAndReportsNoPurchaseEvents() throws {
        var view = Self.view(Self.observer)
        #expect(try view.purchase("monthly") == [.ask(.observerPurchase(product("monthly", in: view)))])
    }

    @Test func observerModeSuccessGrantsThenDismisses() throws {
        var view = Self.view(Self.observer)
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        let actions = view.hostAnswered(.observerPurchase(bought), try hostResult([("type", .string("success"))]))
        #expect(actions == [.grantPurchase(bought, expiresAt: nil), .emit(.didDismiss(.purchased))])
    }

    @Test func observerModeCancelGrantsNothingAndFreesThePurchase() throws {
        var view = Self.view(Self.observer)
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        #expect(view.hostAnswered(.observerPurchase(bought), try hostResult([("type", .string("user_cancelled"))])) == [])
        #expect(try view.purchase("annual").count == 1)
    }

    @Test func observerModeTimeoutGrantsNothing() throws {
        var view = Self.view(Self.observer)
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        #expect(view.hostAnswered(.observerPurchase(bought), .timedOut(WireError(.timeout, "late"))) == [])
    }

    // MARK: - Restores

    @Test func restoreStartsThenAsksTheStore() throws {
        var view = Self.view()
        #expect(try view.restore() == [.emit(.didStartRestore), .store(.restore)])
    }

    @Test func restoreGrantsWhatTheStoreDescribesFinishesThenDismisses() throws {
        var view = Self.view()
        _ = try view.present()
        _ = try view.restore()
        #expect(view.storeReplied(.restore, .restore(.restored(["annual", "unknown"]))) == [
            .grantRestored([Self.annual]), .emit(.didFinishRestore), .emit(.didDisappear), .emit(.didDismiss(.restore_success)),
        ])
    }

    @Test func restoreWithNothingRestoredFinishesAndStaysOpen() throws {
        var view = Self.view()
        _ = try view.restore()
        #expect(view.storeReplied(.restore, .restore(.restored([]))) == [.emit(.didFinishRestore)])
    }

    @Test func restoreFailureReportsTheError() throws {
        var view = Self.view()
        _ = try view.restore()
        let error = WireError(.restoreFailed, "no receipt")
        #expect(view.storeReplied(.restore, .restore(.failed(error))) == [.emit(.didFailRestore(error))])
    }

    @Test func aSecondRestoreWhileOneIsInFlightIsRefusedUntilItEnds() throws {
        var view = Self.view()
        _ = try view.restore()
        #expect(throws: WireError.self) { try view.restore() }
        _ = view.storeReplied(.restore, .restore(.failed(WireError(.timeout, "late"))))
        #expect(try view.restore().count == 2)
    }

    @Test func restoreWithNoStoreFailsAtOnceWithoutStarting() throws {
        var view = Self.view(Self.noStore)
        #expect(try view.restore() == [.emit(.didFailRestore(WireError(.billingUnavailable, "none")))])
    }

    // MARK: - Products

    @Test func preloadAsksTheStoreForThePaywallsProducts() {
        var view = Self.view()
        #expect(view.created(checkLayout: true, preloadProducts: true) == [.store(.fetchProducts(["monthly", "annual"]))])
    }

    @Test func productsFailureAsksTheHostWhetherToRetry() {
        var view = Self.view(Self.hostStore, catalog: [])
        _ = view.created(checkLayout: true, preloadProducts: true)
        let error = WireError(.productsLoadingFailed, "offline")
        #expect(view.storeReplied(.fetchProducts(["monthly", "annual"]), .products(.failure(error))) == [
            .emit(.didFailLoadingProducts(error)), .ask(.productsRetry(error, retryDelayMilliseconds: 50)),
        ])
    }

    @Test func productsFailureWithNoStoreDoesNotAskToRetry() {
        var view = Self.view(Self.noStore)
        let error = WireError(.billingUnavailable, "none")
        #expect(view.storeReplied(.fetchProducts(["monthly", "annual"]), .products(.failure(error))) == [.emit(.didFailLoadingProducts(error))])
    }

    @Test func aRetryAnswerSchedulesTheRetryAndItsTimerLoadsAgain() throws {
        var view = Self.view(Self.hostStore, catalog: [])
        let error = WireError(.productsLoadingFailed, "offline")
        let retry = view.hostAnswered(.productsRetry(error, retryDelayMilliseconds: 50), try hostResult([("retry", .bool(true))]))
        #expect(retry == [.schedule(.retryProducts, afterMilliseconds: 50)])
        #expect(view.timerFired(.retryProducts) == [.store(.fetchProducts(["monthly", "annual"]))])
    }

    @Test func productsPartiallyLoadedNameTheMissingOnes() {
        var view = Self.view(Self.hostStore, catalog: [])
        #expect(view.storeReplied(.fetchProducts(["monthly", "annual"]), .products(.success([Self.annual]))) == [
            .emit(.didPartiallyLoadProducts(failedProductIds: ["monthly"])),
        ])
    }

    @Test func anOutcomeForAnotherOperationIsIgnored() {
        var view = Self.view()
        #expect(view.storeReplied(.restore, .purchase(.cancelled)) == [])
    }

    // MARK: - Rendering, web payment, promo codes, configuration

    @Test func aBrokenBuilderLayoutIsReportedAtCreation() {
        var view = Self.view(paywall: Self.paywall(#""builder":{"sections":"not a list"}"#))
        #expect(names(view.created(checkLayout: true, preloadProducts: false)) == ["paywall_view_did_fail_rendering"])
        var unchecked = Self.view(paywall: Self.paywall(#""builder":{"sections":"not a list"}"#))
        #expect(unchecked.created(checkLayout: false, preloadProducts: false) == [])
    }

    @Test func aRenderingFailureTheHostReportsIsEmitted() {
        let error = WireError(.renderingFailed, "webview crashed")
        #expect(Self.view().renderingFailed(error) == [.emit(.didFailRendering(error))])
    }

    @Test func webPaymentAsksTheHostWithTheProduct() throws {
        let view = Self.view()
        #expect(try view.openWebPayment("annual") == [.ask(.webPayment(product("annual", in: view)))])
    }

    @Test func webPaymentNavigationFinishesWithTheHostsError() throws {
        var view = Self.view()
        let opened = product("annual", in: view)
        let answer = HostOutcome.answered(try HostAnswer(Fields(JSONObject([("error", .object(JSONObject([("message", .string("blocked"))])))]))))
        #expect(view.hostAnswered(.webPayment(opened), answer) == [
            .emit(.didFinishWebPaymentNavigation(opened, error: WireError(.webPaymentFailed, "blocked"))),
        ])
        #expect(view.hostAnswered(.webPayment(opened), try hostResult([])) == [.emit(.didFinishWebPaymentNavigation(opened, error: nil))])
    }

    @Test func aPromoCodeTheHostAcceptsIsValid() throws {
        var view = Self.view()
        #expect(view.hostAnswered(.promoCode("SAVE"), try hostResult([("valid", .bool(true))])) == [
            .emit(.didValidatePromoCode(code: "SAVE", valid: true, error: nil)),
        ])
    }

    @Test func aPromoCodeCheckThatTimesOutIsInvalidWithTheTimeout() {
        var view = Self.view()
        let timeout = WireError(.timeout, "late")
        #expect(view.hostAnswered(.promoCode("SAVE"), .timedOut(timeout)) == [
            .emit(.didValidatePromoCode(code: "SAVE", valid: false, error: timeout)),
        ])
    }

    @Test func configurationWithoutABuilderIsNotFound() {
        #expect(throws: WireError.self) { try Self.view().configuration() }
    }

    @Test func configurationWaitsForProductsTheStoreDescribesOnlyAfterAFetch() throws {
        let builder = #""builder":{"layout":"stack","sections":[{"type":"spacer","height":8}]}"#
        #expect(throws: WireError.self) { try Self.view(Self.hostStore, paywall: Self.paywall(builder), catalog: []).configuration() }
        _ = try Self.view(paywall: Self.paywall(builder)).configuration()
    }
}
