import PaywireModel
import PaywireWire

/// What a paywall view asks for: an event, a store operation, a question to the host, a grant
/// of access, or a timer. Actions run in the order returned, so the order of events is the
/// order written in the machine below, and nowhere else.
enum PaywallViewAction: Sendable {
    case emit(PaywallViewEvent)
    case store(StoreOperation)
    /// A purchase of a product the paywall names an offer for: the backend signs the offer
    /// first, then the store is asked with it; a refusal comes back as the purchase's failure.
    case signOfferThenBuy(ViewProduct, PurchaseOffer)
    case ask(PaywallViewQuestion)
    /// A purchase is about to start: keep what it is attributed to, durably, first.
    case purchaseStarting(ViewProduct)
    /// The store completed (or left pending) a purchase: grant and keep it for the backend;
    /// the outcome comes back as `purchaseSettled`.
    case settlePurchase(ViewProduct, PurchaseOutcome)
    /// The store restored: validate and grant; the outcome comes back as `restoreSettled`.
    case settleRestore(productIds: [String], transactions: [StoreTransaction])
    case schedule(PaywallViewTimer, afterMilliseconds: WideInt)
    /// The view appeared: count a presentation of its placement, durably (caps are judged on it).
    case countPresentation
}

/// What came of a restore once access was settled.
struct RestoreSettlement: Sendable {
    let restoredProductIds: [String]
    /// Whether the profile now has an active access level (a restore that gives access closes
    /// the view; one that finds nothing leaves it open).
    let hasActiveAccess: Bool
    /// The restored purchases the backend moved here from another profile.
    var transferred: [Transfer] = []
}

/// A question a view puts to the host itself, not through the store.
enum PaywallViewQuestion: Sendable {
    /// Observer mode: the app completes the purchase and reports how it went.
    case observerPurchase(ViewProduct)
    /// Products failed to load: retry after the delay?
    case productsRetry(WireError, retryDelayMilliseconds: WideInt)
    case promoCode(String)
    case webPayment(ViewProduct)

    var kind: HostRequestKind {
        switch self {
        case .observerPurchase: return .observerPurchase
        case .productsRetry: return .productsRetry
        case .promoCode: return .promoCodeValidate
        case .webPayment: return .webPaymentOpen
        }
    }

    func writePayload(to writer: inout JSONWriter) {
        switch self {
        case .observerPurchase(let product), .webPayment(let product):
            writer.key("product")
            product.write(to: &writer)
        case .productsRetry(let error, let delay):
            writer.key("error")
            error.write(to: &writer)
            writer.member("retry_delay_ms", delay)
        case .promoCode(let code):
            writer.member("code", code)
        }
    }
}

/// The timers a paywall view owns.
enum PaywallViewTimer: Sendable {
    case retryProducts
}

/// One paywall view as a pure state machine: each input (a host call, a store outcome, a host
/// answer, a timer) returns the actions that follow, in order. Inputs that refuse a call throw
/// and change nothing. One purchase and one restore at a time; every wait ends, because every
/// store operation and question ends (the broker's deadlines).
struct PaywallViewMachine: Sendable {
    /// What a view needs to know of its client, fixed for its life.
    struct Environment: Sendable {
        /// The app completes purchases itself; the view only asks it to.
        var observerMode = false
        /// Why the store can do nothing (no billing provider), or nil.
        var storeUnavailable: WireError?
        /// Purchases wait for the products to be loaded (the host's store).
        var describesProductsOnlyAfterFetch = false
        var productsRetryDelayMilliseconds = ClientConfig.defaultProductsRetryDelay
    }

    enum Phase: Equatable, Sendable { case created, presented, dismissed }

    let info: ViewInfo
    let paywall: PaywallReference
    private let environment: Environment
    /// Products the store describes without a fetch (a test catalog).
    private let catalog: [StoreProduct]
    private(set) var phase: Phase = .created
    private var loadedProducts: [StoreProduct]?
    private var loadingProducts = false
    /// The product being bought, while a purchase is in flight (until its access is settled).
    private var purchasing: String?
    /// A purchase waiting for the products to load.
    private var purchaseAfterLoad: String?
    /// Google Play: the subscription the purchase in progress (or waiting) replaces.
    private var replacing: SubscriptionUpdate?
    private var restoring = false

    init(info: ViewInfo, paywall: PaywallReference, environment: Environment, catalog: [StoreProduct]) {
        self.info = info
        self.paywall = paywall
        self.environment = environment
        self.catalog = catalog
    }

    // MARK: - Host calls

    /// The view exists: a broken builder layout is reported at once, so every platform refuses
    /// the same layout; products load now when asked.
    mutating func created(checkLayout: Bool, preloadProducts: Bool) -> [PaywallViewAction] {
        var actions: [PaywallViewAction] = []
        if checkLayout, let builder = paywall.builder, let problem = PaywallBuilder.validate(builder, productIds: paywall.productIds) {
            actions.append(.emit(.didFailRendering(problem)))
        }
        if preloadProducts { actions += loadProducts() }
        return actions
    }

    mutating func present() throws(WireError) -> [PaywallViewAction] {
        guard phase == .created else {
            throw refusal(.invalidState, "paywall view '\(info.id)' cannot do that now (it was \(phase == .dismissed ? "dismissed" : "already presented"))")
        }
        phase = .presented
        // Counted before the host hears of it: a cap judged after did_appear includes it.
        return [.countPresentation, .emit(.didAppear)]
    }

    mutating func dismiss(_ reason: DismissReason) throws(WireError) -> [PaywallViewAction] {
        guard phase != .dismissed else { throw refusal(.invalidState, "paywall view '\(info.id)' was already dismissed") }
        return close(reason)
    }

    func selectProduct(_ productId: String) throws(WireError) -> [PaywallViewAction] {
        try checkOnPaywall(productId)
        let known = describe(productId) != nil
        return [.emit(.didSelectProduct(productId: productId, product: known ? product(productId) : nil))]
    }

    mutating func perform(_ action: ViewAction) -> [PaywallViewAction] {
        var actions: [PaywallViewAction] = [.emit(.didPerformAction(action))]
        if action.closesView && phase != .dismissed { actions += close(.dismissed) }
        return actions
    }

    func renderingFailed(_ error: WireError) -> [PaywallViewAction] { [.emit(.didFailRendering(error))] }

    mutating func purchase(_ productId: String, replacing update: SubscriptionUpdate? = nil) throws(WireError) -> [PaywallViewAction] {
        try checkOnPaywall(productId)
        guard phase != .dismissed else { throw refusal(.invalidState, "paywall view '\(info.id)' was dismissed") }
        if let inFlight = purchasing ?? purchaseAfterLoad {
            throw refusal(.purchaseInProgress, "a purchase of '\(inFlight)' is already in progress on this view")
        }
        replacing = update
        if environment.observerMode {
            purchasing = productId
            return [.purchaseStarting(product(productId)), .ask(.observerPurchase(product(productId)))]
        }
        if let error = environment.storeUnavailable { return [.emit(.didFailPurchase(product(productId), error))] }
        if environment.describesProductsOnlyAfterFetch && loadedProducts == nil {
            purchaseAfterLoad = productId
            return loadProducts()
        }
        return startPurchase(productId)
    }

    mutating func restore() throws(WireError) -> [PaywallViewAction] {
        guard !restoring else { throw refusal(.restoreInProgress, "a restore is already in progress on this view") }
        // With nothing to restore from, a restore never starts.
        if let error = environment.storeUnavailable { return [.emit(.didFailRestore(error))] }
        restoring = true
        return [.emit(.didStartRestore), .store(.restore)]
    }

    func openWebPayment(_ productId: String) throws(WireError) -> [PaywallViewAction] {
        try checkOnPaywall(productId)
        return [.ask(.webPayment(product(productId)))]
    }

    func submitPromoCode(_ code: String) -> [PaywallViewAction] { [.ask(.promoCode(code))] }

    /// The builder layout with its text tags filled and plan values computed from the products
    /// the store described, and the tags left as written.
    func configuration() throws(WireError) -> (JSONValue, [TextTagProblem]) {
        guard let builder = paywall.builder else {
            throw refusal(.notFound, "the paywall of view '\(info.id)' has no builder configuration")
        }
        if let problem = PaywallBuilder.validate(builder, productIds: paywall.productIds) { throw problem }
        var products: [String: StoreProduct] = [:]
        for id in paywall.productIds {
            if let product = describe(id) { products[id] = product }
        }
        if products.isEmpty && environment.describesProductsOnlyAfterFetch {
            throw refusal(.invalidState, "the view's products are not loaded yet: create the view with preload_products")
        }
        return PaywallBuilder.resolve(builder, productIds: paywall.productIds, products: products)
    }

    // MARK: - Store outcomes, host answers, timers

    mutating func storeReplied(_ operation: StoreOperation, _ outcome: StoreOutcome) -> [PaywallViewAction] {
        switch (operation, outcome) {
        case (.fetchProducts, .products(let result)):
            loadingProducts = false
            switch result {
            case .success(let products): return productsLoaded(products)
            case .failure(let error): return productsFailed(error)
            }
        case (.purchase(let bought), .purchase(let outcome)):
            return finishPurchase(bought.productId, outcome)
        case (.restore, .restore(.failed(let error))):
            restoring = false
            return [.emit(.didFailRestore(error))]
        case (.restore, .restore(.restored(let productIds, let transactions))):
            return [.settleRestore(productIds: productIds, transactions: transactions)]
        default:
            return []
        }
    }

    /// Access for a purchase was settled (granted and kept for the backend), or could not be
    /// kept: then the host hears a failure, not a success whose profile lacks the access.
    mutating func purchaseSettled(_ bought: ViewProduct, _ outcome: PurchaseOutcome, error: WireError?) -> [PaywallViewAction] {
        purchasing = nil
        let settled = product(bought.productId)
        if environment.observerMode {
            guard error == nil, case .succeeded = outcome else { return [] }
            return closeAfterPurchase()
        }
        if let error { return [.emit(.didFailPurchase(settled, error))] }
        switch outcome {
        case .pending(let transaction):
            return [.emit(.didFinishPurchase(settled, .pending, transaction: transaction))]
        case .succeeded(let transaction, _):
            var actions: [PaywallViewAction] = [.emit(.didFinishPurchase(settled, .success, transaction: transaction))]
            switch paywall.postPurchase {
            case .deepLink(let url)?: actions.append(.emit(.didRequestDeepLink(url: url)))
            case .nextStep(let id)?: actions.append(.emit(.didRequestNextStep(stepId: id)))
            case nil: break
            }
            return actions + closeAfterPurchase()
        case .cancelled, .failed:
            return []
        }
    }

    /// A restore's access was settled (by the backend, or on the device without one).
    mutating func restoreSettled(_ result: Result<RestoreSettlement, WireError>) -> [PaywallViewAction] {
        restoring = false
        switch result {
        case .failure(let error):
            return [.emit(.didFailRestore(error))]
        case .success(let settlement):
            var actions: [PaywallViewAction] = [.emit(.didFinishRestore(restoredProductIds: settlement.restoredProductIds))]
            if settlement.hasActiveAccess && paywall.dismissOnRestore && phase != .dismissed { actions += close(.restore_success) }
            return actions
        }
    }

    mutating func hostAnswered(_ question: PaywallViewQuestion, _ outcome: HostOutcome, now: WideInt) -> [PaywallViewAction] {
        switch question {
        case .observerPurchase(let bought):
            guard let answer = outcome.answer else {
                purchasing = nil
                return []
            }
            let reported = PurchaseOutcome(hostResult: answer.result, productId: bought.productId, now: now)
            switch reported {
            case .succeeded, .pending: return [.settlePurchase(product(bought.productId), reported)]
            case .cancelled, .failed:
                purchasing = nil
                return []
            }
        case .productsRetry:
            if case .answered(let answer) = outcome, answer.flag("retry") {
                return [.schedule(.retryProducts, afterMilliseconds: environment.productsRetryDelayMilliseconds)]
            }
            purchaseAfterLoad = nil
            return []
        case .promoCode(let code):
            // The host's own error (or the timeout) travels with the answer: an app tells "wrong
            // code" from "could not check".
            let error = outcome.error(.wrongParam, "the promo code could not be checked")
            var valid = false
            if error == nil, case .answered(let answer) = outcome { valid = answer.flag("valid") }
            return [.emit(.didValidatePromoCode(code: code, valid: valid, error: error))]
        case .webPayment(let opened):
            let error = outcome.error(.webPaymentFailed, "the web payment page could not be opened")
            return [.emit(.didFinishWebPaymentNavigation(product(opened.productId), error: error))]
        }
    }

    mutating func timerFired(_ timer: PaywallViewTimer) -> [PaywallViewAction] {
        switch timer {
        case .retryProducts: return loadProducts()
        }
    }

    // MARK: - Flow steps

    private mutating func loadProducts() -> [PaywallViewAction] {
        guard !loadingProducts else { return [] }
        loadingProducts = true
        return [.store(.fetchProducts(paywall.productIds))]
    }

    private mutating func productsLoaded(_ products: [StoreProduct]) -> [PaywallViewAction] {
        loadedProducts = products
        var actions: [PaywallViewAction] = []
        let missing = paywall.productIds.filter { id in !products.contains { $0.vendorProductId == id } }
        if !missing.isEmpty { actions.append(.emit(.didPartiallyLoadProducts(failedProductIds: missing))) }
        if let productId = purchaseAfterLoad {
            purchaseAfterLoad = nil
            actions += startPurchase(productId)
        }
        return actions
    }

    /// Reports the failure and, when a store exists to retry with, asks the host whether to.
    private func productsFailed(_ error: WireError) -> [PaywallViewAction] {
        var actions: [PaywallViewAction] = [.emit(.didFailLoadingProducts(error))]
        if environment.storeUnavailable == nil {
            actions.append(.ask(.productsRetry(error, retryDelayMilliseconds: environment.productsRetryDelayMilliseconds)))
        }
        return actions
    }

    private mutating func startPurchase(_ productId: String) -> [PaywallViewAction] {
        purchasing = productId
        let bought = product(productId)
        let buy: PaywallViewAction = bought.offerToSign.map { .signOfferThenBuy(bought, $0) } ?? .store(.purchase(bought))
        return [.emit(.didStartPurchase(bought)), .purchaseStarting(bought), buy]
    }

    /// A purchase that went through is settled first (access granted and kept for the backend),
    /// so the finish event carries the new profile; `purchaseSettled` goes on from there.
    private mutating func finishPurchase(_ productId: String, _ outcome: PurchaseOutcome) -> [PaywallViewAction] {
        let bought = product(productId)
        switch outcome {
        case .failed(let error):
            purchasing = nil
            return [.emit(.didFailPurchase(bought, error))]
        case .cancelled:
            purchasing = nil
            return [.emit(.didFinishPurchase(bought, .user_cancelled, transaction: nil))]
        case .pending, .succeeded:
            return [.settlePurchase(bought, outcome)]
        }
    }

    private mutating func closeAfterPurchase() -> [PaywallViewAction] {
        paywall.dismissOnPurchase && phase != .dismissed ? close(.purchased) : []
    }

    /// Disappears (when it was on screen), then dismisses.
    private mutating func close(_ reason: DismissReason) -> [PaywallViewAction] {
        let wasPresented = phase == .presented
        phase = .dismissed
        return (wasPresented ? [.emit(.didDisappear)] : []) + [.emit(.didDismiss(reason))]
    }

    // MARK: - Products

    /// The store's description of a product of the view: loaded with the view, or known to the
    /// store without a fetch.
    private func describe(_ productId: String) -> StoreProduct? {
        loadedProducts?.first { $0.vendorProductId == productId } ?? catalog.first { $0.vendorProductId == productId }
    }

    private func product(_ productId: String) -> ViewProduct {
        let inFlight = productId == purchasing || productId == purchaseAfterLoad
        return ViewProduct(productId: productId, product: describe(productId), paywall: paywall, subscriptionUpdate: inFlight ? replacing : nil)
    }

    private func checkOnPaywall(_ productId: String) throws(WireError) {
        guard paywall.productIds.contains(productId) else {
            throw WireError(.notFound, "product '\(productId)' is not on this paywall",
                            details: JSONObject([("product_id", .string(productId)), ("view_id", .string(info.id))]))
        }
    }

    private func refusal(_ code: ErrorCode, _ message: String) -> WireError {
        WireError(code, message, details: JSONObject([("view_id", .string(info.id))]))
    }
}

#if DEBUG
// Tests compare these; the release library never does and leaves their == out (20 KB in all).
extension PaywallViewAction: Equatable {}
extension RestoreSettlement: Equatable {}
extension PaywallViewQuestion: Equatable {}
extension PaywallViewTimer: Equatable {}
extension PaywallViewMachine.Environment: Equatable {}
#endif
