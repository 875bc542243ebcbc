import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

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
            case .store: return "store.other"
            case .signOfferThenBuy: return "sign_offer_then_buy"
            case .ask(let question): return question.kind.rawValue
            case .purchaseStarting: return "purchase_starting"
            case .settlePurchase: return "settle_purchase"
            case .settleRestore: return "settle_restore"
            case .schedule: return "schedule"
            case .countPresentation: return "count_presentation"
            }
        }
    }

    // MARK: - Lifecycle and dismissal

    @Test func presentingCountsAPresentationThenEmitsDidAppear() throws {
        var view = Self.view()
        #expect(try view.present() == [.countPresentation, .emit(.didAppear)])
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

    static let transaction = StoreTransaction(transactionId: "t-1", originalTransactionId: "t-1", vendorProductId: "monthly",
                                              purchasedAt: 5, environment: .sandbox, store: .test, verification: "sig", expiresAt: nil)
    static let bought = PurchaseOutcome.succeeded(transaction: transaction, expiresAt: nil)

    /// A view whose purchase of `productId` the store just completed with `outcome`.
    func purchased(_ productId: String = "monthly", _ outcome: PurchaseOutcome = bought,
                   paywall: PaywallReference = paywall(), presented: Bool = false) throws -> (PaywallViewMachine, ViewProduct) {
        var view = Self.view(paywall: paywall)
        if presented { _ = try view.present() }
        let product = product(productId, in: view)
        _ = try view.purchase(productId)
        #expect(view.storeReplied(.purchase(product), .purchase(outcome)) == [.settlePurchase(product, outcome)])
        return (view, product)
    }

    @Test func purchaseStartsKeepsItsAttributionThenAsksTheStore() throws {
        var view = Self.view()
        let bought = product("monthly", in: view)
        #expect(try view.purchase("monthly") == [.emit(.didStartPurchase(bought)), .purchaseStarting(bought), .store(.purchase(bought))])
    }

    @Test func aProductThePaywallNamesAnOfferForIsSignedBeforeTheStoreIsAsked() throws {
        let withOffer = #"{"placement":{"developer_id":"main","ab_test_name":"t"},"variation_id":"v","paywall_name":"P","products":[{"vendor_product_id":"monthly","promotional_offer_id":"loyal"},{"vendor_product_id":"annual"}]}"#
        var view = Self.view(paywall: try PaywallReference(try Fields(try JSONParser.parse(withOffer), path: "paywall")))
        let bought = product("monthly", in: view)
        #expect(try view.purchase("monthly") == [.emit(.didStartPurchase(bought)), .purchaseStarting(bought),
                                                 .signOfferThenBuy(bought, PurchaseOffer(kind: .promotional, id: "loyal"))])
    }

    @Test func aSuccessIsSettledBeforeAnythingIsReported() throws {
        _ = try purchased()
    }

    @Test func aSettledSuccessFinishesWithTheTransactionThenDismisses() throws {
        var (view, bought) = try purchased()
        #expect(view.purchaseSettled(bought, Self.bought, error: nil) == [
            .emit(.didFinishPurchase(bought, .success, transaction: Self.transaction)), .emit(.didDismiss(.purchased)),
        ])
    }

    @Test func aSettledSuccessOnAPresentedViewDisappearsBeforeDismissing() throws {
        var (view, bought) = try purchased(presented: true)
        #expect(names(view.purchaseSettled(bought, Self.bought, error: nil))
                == ["paywall_view_did_finish_purchase", "paywall_view_did_disappear", "paywall_view_did_dismiss"])
    }

    @Test func aPurchaseWhoseAccessCouldNotBeKeptIsReportedAsFailed() throws {
        var (view, bought) = try purchased()
        let full = WireError(.storageFailed, "disk full")
        #expect(view.purchaseSettled(bought, Self.bought, error: full) == [.emit(.didFailPurchase(bought, full))])
        #expect(view.phase == .created)
    }

    @Test func theStoresExpiryTravelsWithTheSettlement() throws {
        let outcome = PurchaseOutcome.succeeded(transaction: nil, expiresAt: 99)
        _ = try purchased("annual", outcome)
    }

    @Test func purchaseSuccessWithDismissOnPurchaseOffKeepsTheViewOpen() throws {
        var (view, bought) = try purchased(paywall: Self.paywall(#""dismiss_on_purchase":false"#))
        #expect(names(view.purchaseSettled(bought, Self.bought, error: nil)) == ["paywall_view_did_finish_purchase"])
        #expect(view.phase == .created)
    }

    @Test func purchaseSuccessRequestsTheDeepLinkBeforeDismissing() throws {
        var (view, bought) = try purchased(paywall: Self.paywall(#""post_purchase":{"type":"deep_link","url":"app://welcome"}"#))
        let actions = view.purchaseSettled(bought, Self.bought, error: nil)
        #expect(actions[1] == .emit(.didRequestDeepLink(url: "app://welcome")))
        #expect(names(actions).last == "paywall_view_did_dismiss")
    }

    @Test func purchaseSuccessRequestsTheNextStep() throws {
        var (view, bought) = try purchased(paywall: Self.paywall(#""post_purchase":{"type":"next_step","step_id":"tour"}"#))
        #expect(view.purchaseSettled(bought, Self.bought, error: nil).contains(.emit(.didRequestNextStep(stepId: "tour"))))
    }

    @Test func cancelledPurchaseFinishesAsUserCancelledAndSettlesNothing() throws {
        var view = Self.view()
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        #expect(view.storeReplied(.purchase(bought), .purchase(.cancelled)) == [.emit(.didFinishPurchase(bought, .user_cancelled, transaction: nil))])
    }

    @Test func pendingPurchaseIsKeptThenFinishesAsPending() throws {
        var (view, bought) = try purchased("monthly", .pending(Self.transaction))
        #expect(view.purchaseSettled(bought, .pending(Self.transaction), error: nil) == [
            .emit(.didFinishPurchase(bought, .pending, transaction: Self.transaction)),
        ])
    }

    @Test func failedPurchaseReportsTheErrorAndKeepsTheViewOpen() throws {
        var view = Self.view()
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        #expect(view.storeReplied(.purchase(bought), .purchase(.failed(Self.failure))) == [.emit(.didFailPurchase(bought, Self.failure))])
        #expect(view.phase == .created)
    }

    @Test func aSecondPurchaseIsRefusedUntilTheFirstIsSettled() throws {
        var (view, bought) = try purchased()
        #expect(throws: WireError.self) { try view.purchase("annual") }
        _ = view.purchaseSettled(bought, Self.bought, error: WireError(.storageFailed, "full"))
        #expect(names(try view.purchase("annual")).first == "paywall_view_did_start_purchase")
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
        #expect(actions == [.emit(.didPartiallyLoadProducts(failedProductIds: ["annual"])), .emit(.didStartPurchase(bought)),
                            .purchaseStarting(bought), .store(.purchase(bought))])
    }

    @Test func purchaseWaitingForProductsIsDroppedWhenTheHostDeclinesTheRetry() throws {
        var view = Self.view(Self.hostStore, catalog: [])
        _ = try view.purchase("monthly")
        let error = WireError(.productsLoadingFailed, "offline")
        _ = view.storeReplied(.fetchProducts(["monthly", "annual"]), .products(.failure(error)))
        #expect(view.hostAnswered(.productsRetry(error, retryDelayMilliseconds: 50), try hostResult([("retry", .bool(false))]), now: 0) == [])
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
        let bought = product("monthly", in: view)
        #expect(try view.purchase("monthly") == [.purchaseStarting(bought), .ask(.observerPurchase(bought))])
    }

    @Test func observerModeSuccessIsSettledThenDismisses() throws {
        var view = Self.view(Self.observer)
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        let answered = view.hostAnswered(.observerPurchase(bought), try hostResult([("type", .string("success"))]), now: 0)
        #expect(answered == [.settlePurchase(bought, .succeeded(transaction: nil, expiresAt: nil))])
        #expect(view.purchaseSettled(bought, .succeeded(transaction: nil, expiresAt: nil), error: nil) == [.emit(.didDismiss(.purchased))])
    }

    @Test func observerModeReportsTheTransactionTheAppGives() throws {
        var view = Self.view(Self.observer)
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        let answer = try hostResult([("type", .string("success")), ("transaction", .object(JSONObject([("transaction_id", .string("t-9"))])))])
        guard case .settlePurchase(_, .succeeded(let transaction?, _))? = view.hostAnswered(.observerPurchase(bought), answer, now: 7).first else {
            Issue.record("no settlement"); return
        }
        #expect(transaction.transactionId == "t-9" && transaction.vendorProductId == "monthly" && transaction.purchasedAt == 7)
    }

    @Test func observerModeCancelSettlesNothingAndFreesThePurchase() throws {
        var view = Self.view(Self.observer)
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        #expect(view.hostAnswered(.observerPurchase(bought), try hostResult([("type", .string("user_cancelled"))]), now: 0) == [])
        #expect(try view.purchase("annual").count == 2)
    }

    @Test func observerModeTimeoutSettlesNothing() throws {
        var view = Self.view(Self.observer)
        let bought = product("monthly", in: view)
        _ = try view.purchase("monthly")
        #expect(view.hostAnswered(.observerPurchase(bought), .timedOut(WireError(.timeout, "late")), now: 0) == [])
    }

    // MARK: - Restores

    static let restoredAccess = RestoreSettlement(restoredProductIds: ["annual"], hasActiveAccess: true)

    @Test func restoreStartsThenAsksTheStore() throws {
        var view = Self.view()
        #expect(try view.restore() == [.emit(.didStartRestore), .store(.restore)])
    }

    @Test func whatTheStoreRestoredIsSettledFirst() throws {
        var view = Self.view()
        _ = try view.restore()
        #expect(view.storeReplied(.restore, .restore(.restored(productIds: ["annual"], transactions: [Self.transaction])))
                == [.settleRestore(productIds: ["annual"], transactions: [Self.transaction])])
    }

    @Test func aRestoreThatGivesAccessFinishesThenDismisses() throws {
        var view = Self.view()
        _ = try view.present()
        _ = try view.restore()
        #expect(view.restoreSettled(.success(Self.restoredAccess)) == [
            .emit(.didFinishRestore(restoredProductIds: ["annual"])), .emit(.didDisappear), .emit(.didDismiss(.restore_success)),
        ])
    }

    @Test func aRestoreThatGivesNoActiveAccessLeavesTheViewOpen() throws {
        var view = Self.view()
        _ = try view.restore()
        let settlement = RestoreSettlement(restoredProductIds: ["annual"], hasActiveAccess: false)
        #expect(view.restoreSettled(.success(settlement)) == [.emit(.didFinishRestore(restoredProductIds: ["annual"]))])
        #expect(view.phase == .created)
    }

    @Test func dismissOnRestoreOffKeepsTheViewOpenAfterARestore() throws {
        var view = Self.view(paywall: Self.paywall(#""dismiss_on_restore":false"#))
        _ = try view.restore()
        #expect(names(view.restoreSettled(.success(Self.restoredAccess))) == ["paywall_view_did_finish_restore"])
    }

    @Test func restoreFailureReportsTheError() throws {
        var view = Self.view()
        _ = try view.restore()
        let error = WireError(.restoreFailed, "no receipt")
        #expect(view.storeReplied(.restore, .restore(.failed(error))) == [.emit(.didFailRestore(error))])
    }

    @Test func aRestoreTheBackendCouldNotConfirmFailsAndTheViewStaysOpen() throws {
        var view = Self.view()
        _ = try view.restore()
        let offline = WireError(.networkFailed, "offline")
        #expect(view.restoreSettled(.failure(offline)) == [.emit(.didFailRestore(offline))])
        #expect(view.phase == .created)
    }

    @Test func aSecondRestoreWhileOneIsInFlightIsRefusedUntilItEnds() throws {
        var view = Self.view()
        _ = try view.restore()
        #expect(throws: WireError.self) { try view.restore() }
        _ = view.restoreSettled(.failure(WireError(.timeout, "late")))
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
        let retry = view.hostAnswered(.productsRetry(error, retryDelayMilliseconds: 50), try hostResult([("retry", .bool(true))]), now: 0)
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
        #expect(view.hostAnswered(.webPayment(opened), answer, now: 0) == [
            .emit(.didFinishWebPaymentNavigation(opened, error: WireError(.webPaymentFailed, "blocked"))),
        ])
        #expect(view.hostAnswered(.webPayment(opened), try hostResult([]), now: 0) == [.emit(.didFinishWebPaymentNavigation(opened, error: nil))])
    }

    @Test func aPromoCodeTheHostAcceptsIsValid() throws {
        var view = Self.view()
        #expect(view.hostAnswered(.promoCode("SAVE"), try hostResult([("valid", .bool(true))]), now: 0) == [
            .emit(.didValidatePromoCode(code: "SAVE", valid: true, error: nil)),
        ])
    }

    @Test func aPromoCodeCheckThatTimesOutIsInvalidWithTheTimeout() {
        var view = Self.view()
        let timeout = WireError(.timeout, "late")
        #expect(view.hostAnswered(.promoCode("SAVE"), .timedOut(timeout), now: 0) == [
            .emit(.didValidatePromoCode(code: "SAVE", valid: false, error: timeout)),
        ])
    }

    @Test func aPromoCodeCheckTheHostCouldNotDoKeepsTheHostsError() throws {
        var view = Self.view()
        let answer = HostOutcome.answered(try HostAnswer(Fields(JSONObject([("error", .object(JSONObject([
            ("code", .string("network_failed")), ("message", .string("offline"))])))]))))
        #expect(view.hostAnswered(.promoCode("SAVE"), answer, now: 0) == [
            .emit(.didValidatePromoCode(code: "SAVE", valid: false, error: WireError(.networkFailed, "offline"))),
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
