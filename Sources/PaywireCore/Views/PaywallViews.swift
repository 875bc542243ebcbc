import PaywireModel
import PaywireWire

/// The paywall views of one client: each view's machine, and the running of the actions the
/// machines return: events to the host, operations to the store, questions to the host,
/// grants to the profile, timers. View ids are `paywall-view-N`, never reused.
final class PaywallViews {
    private var machines: [String: PaywallViewMachine] = [:]
    private var nextId = 1
    private let environment: PaywallViewMachine.Environment
    private let store: StoreGateway
    private let broker: HostRequestBroker
    private let timers: Timers
    private let profiles: ProfileStore
    private let sink: EventSink
    private let clock: Clock
    private let analytics: ViewAnalytics
    private let purchases: Purchases
    /// Where products a view's store fetch described are remembered (purchases and restores look them up).
    private let catalog: ProductCatalog
    /// Where a view's appearance is counted (placement caps).
    private let presentations: PresentationLog
    private let log: Log

    init(environment: PaywallViewMachine.Environment, store: StoreGateway, broker: HostRequestBroker, timers: Timers,
         profiles: ProfileStore, sink: EventSink, clock: Clock, analytics: ViewAnalytics, purchases: Purchases,
         catalog: ProductCatalog, presentations: PresentationLog, log: Log) {
        self.presentations = presentations
        self.log = log
        self.analytics = analytics
        self.purchases = purchases
        self.catalog = catalog
        self.environment = environment
        self.store = store
        self.broker = broker
        self.timers = timers
        self.profiles = profiles
        self.sink = sink
        self.clock = clock
    }

    /// Creates a view of `paywall`. `checkLayout` reports a broken builder layout at once;
    /// `preloadProducts` starts loading the products.
    func create(_ paywall: PaywallReference, checkLayout: Bool = true, preloadProducts: Bool = false, context: ViewContext? = nil) -> ViewInfo {
        let info = ViewInfo(id: "paywall-view-\(nextId)", placementId: paywall.placementId,
                            abTestName: paywall.abTestName, variationId: paywall.variationId, context: context)
        nextId += 1
        var machine = PaywallViewMachine(info: info, paywall: paywall, environment: environment,
                                         catalog: store.knownProducts(paywall.productIds))
        let actions = machine.created(checkLayout: checkLayout, preloadProducts: preloadProducts)
        machines[info.id] = machine
        run(actions, on: info)
        return info
    }

    /// Gives one input to the view `viewId` and runs what follows. An input that throws
    /// refuses the call and changes nothing.
    func handle(_ viewId: String, _ input: (inout PaywallViewMachine) throws(WireError) -> [PaywallViewAction]) throws(WireError) {
        guard var machine = machines[viewId] else {
            throw WireError(.notFound, "no paywall view '\(viewId)'", details: JSONObject([("view_id", .string(viewId))]))
        }
        let actions = try input(&machine)
        machines[viewId] = machine
        run(actions, on: machine.info)
    }

    /// Reads the view `viewId` without changing it.
    func inspect<T>(_ viewId: String, _ read: (PaywallViewMachine) throws(WireError) -> T) throws(WireError) -> T {
        guard let machine = machines[viewId] else {
            throw WireError(.notFound, "no paywall view '\(viewId)'", details: JSONObject([("view_id", .string(viewId))]))
        }
        return try read(machine)
    }

    /// `paywall_view_get_configuration`: the view's builder configuration, its tags filled;
    /// each tag left as written is reported by a `log` warning.
    func configuration(_ viewId: String) throws(WireError) -> JSONValue {
        let (configuration, problems) = try inspect(viewId) { machine throws(WireError) in try machine.configuration() }
        log.tagsLeftAsWritten(problems, in: "builder")
        return configuration
    }

    private func storeReplied(_ viewId: String, _ operation: StoreOperation, _ outcome: StoreOutcome) {
        if case .products(.success(let described)) = outcome { catalog.remember(described) }
        try? handle(viewId) { machine in machine.storeReplied(operation, outcome) }
    }

    private func hostAnswered(_ viewId: String, _ question: PaywallViewQuestion, _ outcome: HostOutcome) {
        let now = clock.nowMilliseconds()
        try? handle(viewId) { machine in machine.hostAnswered(question, outcome, now: now) }
    }

    private func restoreSettled(_ viewId: String, _ result: Result<RestoreSettlement, WireError>) {
        try? handle(viewId) { machine in machine.restoreSettled(result) }
    }

    private func timerFired(_ viewId: String, _ timer: PaywallViewTimer) {
        try? handle(viewId) { machine in machine.timerFired(timer) }
    }

    /// Starts a store operation; its outcome goes to the machine as the outcome of `asked`
    /// (the product the machine chose, before any offer was signed onto it).
    private func startStore(_ operation: StoreOperation, as asked: StoreOperation, on view: ViewInfo) {
        let reply: StoreReply = { [self] outcome in self.storeReplied(view.id, asked, outcome) }
        if let outcome = store.start(operation, origin: view.origin, reply: reply) {
            storeReplied(view.id, asked, outcome)
        }
    }

    /// A view purchase with an offer: the backend signs it first; a refusal is the purchase's
    /// failure, as the store's would be.
    private func signThenBuy(_ bought: ViewProduct, _ offer: PurchaseOffer, on view: ViewInfo) {
        purchases.sign(offer, for: bought) { [self] result in
            switch result {
            case .success(let signed): self.startStore(.purchase(signed), as: .purchase(bought), on: view)
            case .failure(let error): self.storeReplied(view.id, .purchase(bought), .purchase(.failed(error)))
            }
        }
    }

    /// Runs actions in order. A store outcome that is there at once is fed back before the
    /// next action, so the events of a whole flow keep the machine's order.
    private func run(_ actions: [PaywallViewAction], on view: ViewInfo) {
        for action in actions {
            switch action {
            case .emit(let event):
                sink.emit(event.event(view: view, profile: profiles.current, now: profiles.accessNow()))
                analytics.paywallView(event, view: view)
            case .signOfferThenBuy(let bought, let offer):
                signThenBuy(bought, offer, on: view)
            case .store(let operation):
                startStore(operation, as: operation, on: view)
            case .ask(let question):
                broker.ask(question.kind, origin: view.origin, payload: question.writePayload) { [self] outcome in
                    self.hostAnswered(view.id, question, outcome)
                }
            case .purchaseStarting(let product):
                purchases.purchaseStarting(product)
            case .settlePurchase(let bought, let outcome):
                let error = purchases.settle(outcome, productId: bought.productId, product: bought.product, paywall: bought.paywall)
                try? handle(view.id) { machine in machine.purchaseSettled(bought, outcome, error: error) }
            case .settleRestore(let productIds, let transactions):
                let reply: RestoreReply = { [self] result in self.restoreSettled(view.id, result) }
                if let result = purchases.settleRestore(productIds: productIds, transactions: transactions, reply: reply) {
                    restoreSettled(view.id, result)
                }
            case .schedule(let timer, let milliseconds):
                timers.schedule(after: milliseconds) { [self] in self.timerFired(view.id, timer) }
            case .countPresentation:
                // The view is on screen whatever happens here: a count not kept is reported, not
                // a failure of the call that reported the appearance.
                do throws(WireError) {
                    try presentations.count(view.placementId, profileId: profiles.profileId, at: profiles.accessNow())
                } catch {
                    log(.error, "the presentation of placement '\(view.placementId)' was not counted: \(error.message)",
                        details: [("placement_id", .string(view.placementId))] + error.logDetails)
                }
            }
        }
    }
}

extension PaywallViewMachine.Environment {
    /// What every paywall view of a client knows of it: the config's choices and what its store can do.
    init(config: ClientConfig, store: StoreGateway) {
        self.init(observerMode: config.observerMode, storeUnavailable: store.unavailable,
                  describesProductsOnlyAfterFetch: store.describesProductsOnlyAfterFetch,
                  productsRetryDelayMilliseconds: config.productsRetryDelayMilliseconds)
    }
}
