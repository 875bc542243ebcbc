// Paywall views: what each thing the host reports means, and which events follow, in which
// order. Flows that need the store or the host run as steps: a `host_request` with a deadline,
// or a timer, and the step that follows when the answer (or the deadline) comes. One purchase
// and one restore at a time per view; every wait ends.

/// Work waiting for a timer.
enum TimerWork: Sendable {
    case hostDeadline(requestId: String)
    case testPurchase(viewId: String, productId: String)
    case testRestore(viewId: String)
    case retryProducts(viewId: String)
    case loadBudget(callToken: UInt64, key: PlacementKey)
    case profileBudget(callToken: UInt64)
}

/// How a view was closed, as `paywall_view_did_dismiss` reports it.
enum DismissReason: String, CaseIterable, Sendable {
    case purchased, dismissed, tapped_outside, programmatic, restore_success
}

/// What the user did that is not a purchase or a restore.
enum ViewAction: Sendable {
    case close, systemBack, openURL(String), custom(String)

    init(_ fields: Fields) throws(WireError) {
        switch try fields.string("type") {
        case "close": self = .close
        case "system_back": self = .systemBack
        case "open_url": self = .openURL(try fields.identifier("value"))
        case "custom": self = .custom(try fields.identifier("value"))
        case let other: throw WireError.wrongParam(fields.fieldPath("type"), "'\(other)' is not one of: close, system_back, open_url, custom")
        }
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            switch self {
            case .close: writer.member("type", "close")
            case .systemBack: writer.member("type", "system_back")
            case .openURL(let url):
                writer.member("type", "open_url")
                writer.member("value", url)
            case .custom(let value):
                writer.member("type", "custom")
                writer.member("value", value)
            }
        }
    }
}

extension Client {
    // MARK: - Methods the host calls

    func createPaywallView(_ params: Fields) throws(WireError) -> CallResponse {
        let paywall = try PaywallReference(try params.object("paywall"))
        let preload = try params.optionalBool("preload_products") ?? false
        let state = views.addPaywallView(paywall)
        // The layout is checked once, here, so every platform refuses the same broken layout.
        if let builder = paywall.builder, let problem = PaywallBuilder.validate(builder, productIds: paywall.productIds) {
            emit("paywall_view_did_fail_rendering", state) { writer in
                writer.key("error")
                problem.write(to: &writer)
            }
        }
        if preload { loadProducts(viewId: state.info.id) }
        return .success { writer in state.info.write(to: &writer) }
    }

    /// The view's builder layout with computed plan values (price, period, trial label, save
    /// percentage), from the products the store described.
    func paywallViewGetConfiguration(_ params: Fields) throws(WireError) -> CallResponse {
        let view = try paywallView(params)
        guard let builder = view.paywall.builder else {
            throw WireError(.notFound, "the paywall of view '\(view.info.id)' has no builder configuration", details: viewDetails(view))
        }
        if let problem = PaywallBuilder.validate(builder, productIds: view.paywall.productIds) { throw problem }
        var products: [String: StoreProduct] = [:]
        for id in view.paywall.productIds {
            if let product = storeProduct(id, of: view) { products[id] = product }
        }
        if products.isEmpty, case .host = store {
            throw WireError(.invalidState, "the view's products are not loaded yet: create the view with preload_products", details: viewDetails(view))
        }
        let resolved = PaywallBuilder.resolve(builder, products: products)
        return .success { writer in writer.value(resolved) }
    }

    func presentPaywallView(_ params: Fields) throws(WireError) -> CallResponse {
        let view = try paywallView(params, require: .created)
        views.paywallViews[view.info.id]?.phase = .presented
        emit("paywall_view_did_appear", view)
        return .success { writer in writer.null() }
    }

    func dismissPaywallView(_ params: Fields) throws(WireError) -> CallResponse {
        let view = try paywallView(params)
        let reason = try params.optionalEnum("reason", DismissReason.self) ?? .programmatic
        guard view.phase != .dismissed else {
            throw WireError(.invalidState, "paywall view '\(view.info.id)' was already dismissed", details: viewDetails(view))
        }
        dismiss(view.info.id, reason: reason)
        return .success { writer in writer.null() }
    }

    func paywallViewSelectProduct(_ params: Fields) throws(WireError) -> CallResponse {
        let view = try paywallView(params)
        let productId = try productOfView(view, params)
        views.paywallViews[view.info.id]?.selectedProductId = productId
        emit("paywall_view_did_select_product", view) { writer in
            writer.member("product_id", productId)
            self.writeProductIfKnown(productId, of: view, to: &writer)
        }
        return .success { writer in writer.null() }
    }

    func paywallViewPerformAction(_ params: Fields) throws(WireError) -> CallResponse {
        let view = try paywallView(params)
        let action = try ViewAction(try params.object("action"))
        emit("paywall_view_did_perform_action", view) { writer in
            writer.key("action")
            action.write(to: &writer)
        }
        // Close and back always close: a close button that does nothing is impossible.
        switch action {
        case .close, .systemBack:
            if view.phase != .dismissed { dismiss(view.info.id, reason: .dismissed) }
        case .openURL, .custom:
            break
        }
        return .success { writer in writer.null() }
    }

    func paywallViewReportRenderingFailure(_ params: Fields) throws(WireError) -> CallResponse {
        let view = try paywallView(params)
        let error = WireError(.renderingFailed, try params.optionalString("message") ?? "the paywall could not be rendered",
                              details: try Client.underlyingDetails(params))
        emit("paywall_view_did_fail_rendering", view) { writer in
            writer.key("error")
            error.write(to: &writer)
        }
        return .success { writer in writer.null() }
    }

    func paywallViewMakePurchase(_ params: Fields) throws(WireError) -> CallResponse {
        let view = try paywallView(params)
        let productId = try productOfView(view, params)
        guard view.phase != .dismissed else {
            throw WireError(.invalidState, "paywall view '\(view.info.id)' was dismissed", details: viewDetails(view))
        }
        if let inFlight = view.purchasing ?? view.purchaseAfterLoad {
            throw WireError(.purchaseInProgress, "a purchase of '\(inFlight)' is already in progress on this view",
                            details: viewDetails(view))
        }
        if observerMode {
            // The app completes purchases itself: the core only asks it to, and reports no
            // purchase events of its own.
            views.paywallViews[view.info.id]?.purchasing = productId
            askHost(.observerPurchase, view: view, productId: productId) { writer in
                writer.key("product")
                self.writeProduct(productId, of: view, to: &writer)
            }
            return .success { writer in writer.null() }
        }
        switch store {
        case .none:
            let error = WireError(.billingUnavailable, "no billing provider is configured (store.type is none)")
            emit("paywall_view_did_fail_purchase", view) { writer in
                writer.key("product")
                self.writeProduct(productId, of: view, to: &writer)
                writer.key("error")
                error.write(to: &writer)
            }
        case .test(let testStore):
            views.paywallViews[view.info.id]?.purchasing = productId
            emit("paywall_view_did_start_purchase", view) { writer in
                writer.key("product")
                self.writeProduct(productId, of: view, to: &writer)
            }
            let script = testStore.purchaseScripts[productId] ?? .success
            if script.delayMilliseconds > 0 {
                schedule(.testPurchase(viewId: view.info.id, productId: productId), after: script.delayMilliseconds)
            } else {
                finishPurchase(viewId: view.info.id, productId: productId, outcome: .scripted(script))
            }
        case .host:
            guard view.products != nil else {
                views.paywallViews[view.info.id]?.purchaseAfterLoad = productId
                loadProducts(viewId: view.info.id)
                return .success { writer in writer.null() }
            }
            startHostPurchase(viewId: view.info.id, productId: productId)
        }
        return .success { writer in writer.null() }
    }

    func paywallViewRestore(_ params: Fields) throws(WireError) -> CallResponse {
        let view = try paywallView(params)
        guard !view.restoring else {
            throw WireError(.restoreInProgress, "a restore is already in progress on this view", details: viewDetails(view))
        }
        switch store {
        case .none:
            // Fails at once: with nothing to restore from, a restore never starts.
            let error = WireError(.billingUnavailable, "no billing provider is configured (store.type is none)")
            emit("paywall_view_did_fail_restore", view) { writer in
                writer.key("error")
                error.write(to: &writer)
            }
        case .test(let testStore):
            views.paywallViews[view.info.id]?.restoring = true
            emit("paywall_view_did_start_restore", view)
            if testStore.restoreScript.delayMilliseconds > 0 {
                schedule(.testRestore(viewId: view.info.id), after: testStore.restoreScript.delayMilliseconds)
            } else {
                finishRestore(viewId: view.info.id, outcome: .scripted(testStore.restoreScript))
            }
        case .host:
            views.paywallViews[view.info.id]?.restoring = true
            emit("paywall_view_did_start_restore", view)
            askHost(.storeRestore, view: view) { _ in }
        }
        return .success { writer in writer.null() }
    }

    func paywallViewOpenWebPayment(_ params: Fields) throws(WireError) -> CallResponse {
        let view = try paywallView(params)
        let productId = try productOfView(view, params)
        askHost(.webPaymentOpen, view: view, productId: productId) { writer in
            writer.key("product")
            self.writeProduct(productId, of: view, to: &writer)
        }
        return .success { writer in writer.null() }
    }

    func paywallViewSubmitPromoCode(_ params: Fields) throws(WireError) -> CallResponse {
        let view = try paywallView(params)
        let code = try params.identifier("code")
        guard code.utf8.count <= 256 else { throw WireError.wrongParam("code", "is longer than 256 bytes") }
        askHost(.promoCodeValidate, view: view, code: code) { writer in writer.member("code", code) }
        return .success { writer in writer.null() }
    }

    /// Answers a `host_request`. A late answer (after the deadline) is ignored with a log event.
    func hostRespond(_ params: Fields) throws(WireError) -> CallResponse {
        let requestId = try params.identifier("request_id")
        let answer = try HostAnswer(params)
        guard let request = hostRequests.answer(requestId) else {
            if hostRequests.hasExpired(requestId) {
                log(.warn, "late answer to host request '\(requestId)' ignored: its deadline had passed",
                    details: [("request_id", .string(requestId))])
                return .success { writer in writer.object { writer in writer.member("accepted", false) } }
            }
            throw WireError(.notFound, "no host request '\(requestId)' is waiting for an answer",
                            details: JSONObject([("request_id", .string(requestId))]))
        }
        cancelTimer(request.deadlineToken)
        resume(request, with: .answered(answer))
        return .success { writer in writer.object { writer in writer.member("accepted", true) } }
    }

    // MARK: - Timers

    /// Runs the work a timer was set for. Called by the boundary under the client's lock.
    public func timerFired(_ token: UInt64) {
        guard let work = timers.removeValue(forKey: token) else { return }
        switch work {
        case .hostDeadline(let requestId):
            guard let request = hostRequests.expire(requestId) else { return }
            log(.warn, "host request '\(requestId)' (\(request.kind.rawValue)) got no answer in time",
                details: [("request_id", .string(requestId))])
            resume(request, with: .timedOut)
        case .testPurchase(let viewId, let productId):
            guard case .test(let testStore) = store else { return }
            finishPurchase(viewId: viewId, productId: productId, outcome: .scripted(testStore.purchaseScripts[productId] ?? .success))
        case .testRestore(let viewId):
            guard case .test(let testStore) = store else { return }
            finishRestore(viewId: viewId, outcome: .scripted(testStore.restoreScript))
        case .retryProducts(let viewId):
            loadProducts(viewId: viewId)
        case .loadBudget(let callToken, let key):
            loadBudgetExpired(callToken: callToken, key: key)
        case .profileBudget(let callToken):
            profileBudgetExpired(callToken: callToken)
        }
    }

    /// Asks for `work` after `milliseconds`; the token cancels it (`timers.removeValue`).
    @discardableResult
    func schedule(_ work: TimerWork, after milliseconds: Int) -> UInt64 {
        let token = nextTimerToken
        nextTimerToken += 1
        timers[token] = work
        scheduler?.schedule(afterMilliseconds: milliseconds, token: token)
        return token
    }

    private func cancelTimer(_ token: UInt64) { timers.removeValue(forKey: token) }

    // MARK: - Host requests

    /// Emits a `host_request` with a deadline; returns its id.
    @discardableResult
    func askHost(_ kind: HostRequestKind, view: PaywallViewState?, productId: String? = nil, code: String? = nil,
                 callToken: UInt64? = nil, backend: BackendRequest? = nil, payload: (inout JSONWriter) -> Void) -> String {
        let id = hostRequests.makeId()
        let token = schedule(.hostDeadline(requestId: id), after: hostRequestTimeout)
        hostRequests.open(PendingHostRequest(id: id, kind: kind, viewId: view?.info.id ?? "", callToken: callToken,
                                             productId: productId, code: code, deadlineToken: token, backend: backend))
        let timeout = hostRequestTimeout
        sink.emit(Event("host_request") { writer in
            writer.member("request_id", id)
            writer.member("kind", kind.rawValue)
            writer.member("timeout_ms", timeout)
            if let view {
                writer.key("view")
                view.info.write(to: &writer)
            }
            writer.key("payload")
            writer.object(payload)
        })
        return id
    }

    enum HostOutcome: Sendable {
        case answered(HostAnswer)
        case timedOut
    }

    private func resume(_ request: PendingHostRequest, with outcome: HostOutcome) {
        let viewId = request.viewId
        func failure(_ code: ErrorCode, _ fallback: String) -> WireError? {
            switch outcome {
            case .timedOut:
                return WireError(.timeout, "the host did not answer \(request.kind.rawValue) within \(hostRequestTimeout) ms",
                                 details: JSONObject([("request_id", .string(request.id))]))
            case .answered(let answer):
                return answer.error(code: code, fallback: fallback)
            }
        }
        switch request.kind {
        case .http:
            guard let backend = request.backend else { return }
            switch outcome {
            case .timedOut: backendAnswered(backend, outcome: .timedOut)
            case .answered(let answer): backendAnswered(backend, outcome: answer.httpOutcome)
            }
        case .storePurchase:
            let productId = request.productId ?? ""
            if let error = failure(.purchaseFailed, "the store could not complete the purchase") {
                finishPurchase(viewId: viewId, productId: productId, outcome: .failed(error))
            } else if case .answered(let answer) = outcome {
                finishPurchase(viewId: viewId, productId: productId, outcome: answer.purchaseOutcome)
            }
        case .observerPurchase:
            views.paywallViews[viewId]?.purchasing = nil
            if case .answered(let answer) = outcome, failure(.purchaseFailed, "") == nil,
               case .succeeded(let expiresAt) = answer.purchaseOutcome, let view = views.paywallViews[viewId] {
                grantPurchase(request.productId ?? "", of: view, expiresAt: expiresAt)
                if view.paywall.dismissOnPurchase && view.phase != .dismissed { dismiss(viewId, reason: .purchased) }
            }
        case .storeRestore:
            if let error = failure(.restoreFailed, "the store could not restore purchases") {
                finishRestore(viewId: viewId, outcome: .failed(error))
            } else if case .answered(let answer) = outcome {
                finishRestore(viewId: viewId, outcome: .restored(answer.productIds))
            }
        case .storeFetchProducts:
            if let callToken = request.callToken, let call = pendingProductCalls.removeValue(forKey: callToken) {
                let response: CallResponse
                if let error = failure(.productsLoadingFailed, "the store could not load the products") {
                    response = .failure(error)
                } else if case .answered(let answer) = outcome {
                    do throws(WireError) {
                        response = productsResponse(call.paywall, found: try answer.products(), waitForValidation: call.waitForValidation)
                    } catch {
                        response = .failure(error)
                    }
                } else {
                    response = .failure(WireError(.internal, "no answer and no failure"))
                }
                completions?.complete(token: callToken, response: response)
                return
            }
            guard var view = views.paywallViews[viewId] else { return }
            view.loadingProducts = false
            views.paywallViews[viewId] = view
            if let error = failure(.productsLoadingFailed, "the store could not load the products") {
                productsFailed(viewId: viewId, error: error)
            } else if case .answered(let answer) = outcome {
                do throws(WireError) {
                    productsLoaded(viewId: viewId, products: try answer.products())
                } catch {
                    productsFailed(viewId: viewId, error: error)
                }
            }
        case .productsRetry:
            if case .answered(let answer) = outcome, answer.retry {
                schedule(.retryProducts(viewId: viewId), after: productsRetryDelay)
            } else if let view = views.paywallViews[viewId], view.purchaseAfterLoad != nil {
                views.paywallViews[viewId]?.purchaseAfterLoad = nil
            }
        case .promoCodeValidate:
            guard let view = views.paywallViews[viewId] else { return }
            let error = failure(.wrongParam, "")
            var valid = false
            if error == nil, case .answered(let answer) = outcome { valid = answer.valid }
            emit("paywall_view_did_validate_promo_code", view) { writer in
                writer.member("code", request.code ?? "")
                writer.member("valid", valid)
                if case .timedOut = outcome, let error {
                    writer.key("error")
                    error.write(to: &writer)
                }
            }
        case .webPaymentOpen:
            guard let view = views.paywallViews[viewId] else { return }
            let error = failure(.webPaymentFailed, "the web payment page could not be opened")
            emit("paywall_view_did_finish_web_payment_navigation", view) { writer in
                writer.key("product")
                self.writeProduct(request.productId ?? "", of: view, to: &writer)
                if let error {
                    writer.key("error")
                    error.write(to: &writer)
                }
            }
        }
    }

    // MARK: - Flow steps

    enum PurchaseOutcome {
        case scripted(ScriptedOutcome)
        case succeeded(expiresAt: Int?)
        case cancelled
        case pending
        case failed(WireError)
    }

    private func startHostPurchase(viewId: String, productId: String) {
        guard let view = views.paywallViews[viewId] else { return }
        views.paywallViews[viewId]?.purchasing = productId
        emit("paywall_view_did_start_purchase", view) { writer in
            writer.key("product")
            self.writeProduct(productId, of: view, to: &writer)
        }
        askHost(.storePurchase, view: view, productId: productId) { writer in
            writer.key("product")
            self.writeProduct(productId, of: view, to: &writer)
        }
    }

    func finishPurchase(viewId: String, productId: String, outcome: PurchaseOutcome) {
        guard let view = views.paywallViews[viewId] else { return }
        views.paywallViews[viewId]?.purchasing = nil
        var resolved = outcome
        if case .scripted(let script) = outcome {
            switch script.kind {
            case .success: resolved = .succeeded(expiresAt: nil)
            case .user_cancelled: resolved = .cancelled
            case .pending: resolved = .pending
            case .failed: resolved = .failed(script.error ?? WireError(.purchaseFailed, "the purchase failed"))
            }
        }
        switch resolved {
        case .failed(let error):
            emit("paywall_view_did_fail_purchase", view) { writer in
                writer.key("product")
                self.writeProduct(productId, of: view, to: &writer)
                writer.key("error")
                error.write(to: &writer)
            }
        case .cancelled, .pending:
            let type = { if case .cancelled = resolved { return "user_cancelled" } else { return "pending" } }()
            emit("paywall_view_did_finish_purchase", view) { writer in
                writer.key("product")
                self.writeProduct(productId, of: view, to: &writer)
                writer.key("purchase_result")
                writer.object { writer in writer.member("type", type) }
            }
        case .succeeded(let expiresAt):
            if let error = grantPurchase(productId, of: view, expiresAt: expiresAt) {
                // The access could not be kept: the host hears a failure naming the file, not a
                // success whose profile lacks the access (the store can restore it later).
                finishPurchase(viewId: viewId, productId: productId, outcome: .failed(error))
                return
            }
            let now = clock.nowMilliseconds()
            let profile = self.profile
            emit("paywall_view_did_finish_purchase", view) { writer in
                writer.key("product")
                self.writeProduct(productId, of: view, to: &writer)
                writer.key("purchase_result")
                writer.object { writer in
                    writer.member("type", "success")
                    writer.key("profile")
                    profile.write(to: &writer, now: now)
                }
            }
            switch view.paywall.postPurchase {
            case .deepLink(let url)?:
                emit("paywall_view_did_request_deep_link", view) { writer in writer.member("url", url) }
            case .nextStep(let id)?:
                emit("paywall_view_did_request_next_step", view) { writer in writer.member("step_id", id) }
            case nil:
                break
            }
            if view.paywall.dismissOnPurchase && view.phase != .dismissed { dismiss(viewId, reason: .purchased) }
        case .scripted:
            break
        }
    }

    enum RestoreOutcome {
        case scripted(ScriptedOutcome)
        case restored([String])
        case failed(WireError)
    }

    func finishRestore(viewId: String, outcome: RestoreOutcome) {
        guard let view = views.paywallViews[viewId] else { return }
        views.paywallViews[viewId]?.restoring = false
        var resolved = outcome
        if case .scripted(let script) = outcome {
            resolved = script.kind == .failed
                ? .failed(script.error ?? WireError(.restoreFailed, "the restore failed"))
                : .restored(script.productIds)
        }
        switch resolved {
        case .failed(let error):
            emit("paywall_view_did_fail_restore", view) { writer in
                writer.key("error")
                error.write(to: &writer)
            }
        case .restored(let productIds):
            var next = profile
            let now = clock.nowMilliseconds()
            for productId in productIds {
                guard let product = storeProduct(productId, of: view) else { continue }
                next.grant(accessLevel: product.accessLevel,
                           Profile.Grant(vendorProductId: productId, activatedAt: now, expiresAt: product.expiry(from: now)),
                           isSubscription: product.period != nil)
            }
            if next != profile, let error = saveProfile(next) {
                finishRestore(viewId: viewId, outcome: .failed(error))
                return
            }
            let profile = self.profile
            emit("paywall_view_did_finish_restore", view) { writer in
                writer.key("profile")
                profile.write(to: &writer, now: now)
            }
            if !productIds.isEmpty && view.phase != .dismissed { dismiss(viewId, reason: .restore_success) }
        case .scripted:
            break
        }
    }

    /// Loads the view's products from the store; a failure asks the host whether to retry.
    func loadProducts(viewId: String) {
        guard let view = views.paywallViews[viewId], !view.loadingProducts else { return }
        switch store {
        case .none:
            productsFailed(viewId: viewId, error: WireError(.billingUnavailable, "no billing provider is configured (store.type is none)"))
        case .test(let testStore):
            do throws(WireError) {
                productsLoaded(viewId: viewId, products: try testStore.products(view.paywall.productIds))
            } catch {
                productsFailed(viewId: viewId, error: error)
            }
        case .host:
            views.paywallViews[viewId]?.loadingProducts = true
            askHost(.storeFetchProducts, view: view) { writer in
                writer.key("product_ids")
                writer.array { writer in for id in view.paywall.productIds { writer.string(id) } }
            }
        }
    }

    private func productsLoaded(viewId: String, products: [StoreProduct]) {
        guard let view = views.paywallViews[viewId] else { return }
        views.paywallViews[viewId]?.products = products
        let missing = view.paywall.productIds.filter { id in !products.contains { $0.vendorProductId == id } }
        if !missing.isEmpty {
            emit("paywall_view_did_partially_load_products", view) { writer in
                writer.key("failed_product_ids")
                writer.array { writer in for id in missing { writer.string(id) } }
            }
        }
        if let productId = view.purchaseAfterLoad {
            views.paywallViews[viewId]?.purchaseAfterLoad = nil
            startHostPurchase(viewId: viewId, productId: productId)
        }
    }

    private func productsFailed(viewId: String, error: WireError) {
        guard let view = views.paywallViews[viewId] else { return }
        emit("paywall_view_did_fail_loading_products", view) { writer in
            writer.key("error")
            error.write(to: &writer)
        }
        guard store.isAvailable else { return }
        askHost(.productsRetry, view: view) { writer in
            writer.key("error")
            error.write(to: &writer)
            writer.member("retry_delay_ms", self.productsRetryDelay)
        }
    }

    // MARK: - Helpers

    /// Grants the purchased product's access level; the storage error when it could not be kept.
    @discardableResult
    private func grantPurchase(_ productId: String, of view: PaywallViewState, expiresAt: Int?) -> WireError? {
        let now = clock.nowMilliseconds()
        let product = storeProduct(productId, of: view)
        var next = profile
        next.grant(accessLevel: product?.accessLevel ?? "premium",
                   Profile.Grant(vendorProductId: productId, activatedAt: now, expiresAt: expiresAt ?? product?.expiry(from: now)),
                   isSubscription: product?.period != nil)
        return saveProfile(next)
    }

    /// Keeps the new profile and announces it, or, when it cannot be written, keeps the old one
    /// (memory never claims what the disk did not keep), logs the failure naming the file, and
    /// returns the error so the flow can report it.
    @discardableResult
    func saveProfile(_ next: Profile) -> WireError? {
        do throws(WireError) {
            try switchProfile(to: next)
            return nil
        } catch {
            log(.error, "could not keep the profile: \(error.message)",
                details: [("code", .string(error.code.rawValue))] + error.details.members.map { ($0.key, $0.value) })
            return error
        }
    }

    private func dismiss(_ viewId: String, reason: DismissReason) {
        guard let view = views.paywallViews[viewId] else { return }
        views.paywallViews[viewId]?.phase = .dismissed
        if view.phase == .presented { emit("paywall_view_did_disappear", view) }
        emit("paywall_view_did_dismiss", view) { writer in writer.member("reason", reason.rawValue) }
    }

    private func emit(_ name: String, _ view: PaywallViewState, _ body: (inout JSONWriter) -> Void = { _ in }) {
        sink.emit(Event(name) { writer in
            writer.key("view")
            view.info.write(to: &writer)
            body(&writer)
        })
    }

    private func paywallView(_ params: Fields, require phase: PaywallViewState.Phase? = nil) throws(WireError) -> PaywallViewState {
        let viewId = try params.identifier("view_id")
        guard let view = views.paywallViews[viewId] else {
            throw WireError(.notFound, "no paywall view '\(viewId)'", details: JSONObject([("view_id", .string(viewId))]))
        }
        if let phase, view.phase != phase {
            throw WireError(.invalidState, "paywall view '\(viewId)' cannot do that now (it was \(view.phase == .dismissed ? "dismissed" : "already presented"))",
                            details: viewDetails(view))
        }
        return view
    }

    private func viewDetails(_ view: PaywallViewState) -> JSONObject { JSONObject([("view_id", .string(view.info.id))]) }

    /// The `product_id` param, which must be one of the view's paywall products.
    private func productOfView(_ view: PaywallViewState, _ params: Fields) throws(WireError) -> String {
        let productId = try params.identifier("product_id")
        guard view.paywall.productIds.contains(productId) else {
            throw WireError(.notFound, "product '\(productId)' is not on this paywall",
                            details: JSONObject([("product_id", .string(productId)), ("view_id", .string(view.info.id))]))
        }
        return productId
    }

    /// The store's description of a product of the view: loaded with the view, or from the
    /// test store's catalog.
    private func storeProduct(_ productId: String, of view: PaywallViewState) -> StoreProduct? {
        if let product = view.products?.first(where: { $0.vendorProductId == productId }) { return product }
        if case .test(let testStore) = store { return testStore.product(productId) }
        return nil
    }

    /// The product as events carry it: the paywall product shape when the store knows it, else
    /// `{vendor_product_id}` with the paywall context.
    private func writeProduct(_ productId: String, of view: PaywallViewState, to writer: inout JSONWriter) {
        let index = view.paywall.productIds.firstIndex(of: productId) ?? 0
        if let product = storeProduct(productId, of: view) {
            product.write(to: &writer, paywall: view.paywall, index: index)
        } else {
            writer.object { writer in
                writer.member("vendor_product_id", productId)
                writer.member("paywall_variation_id", view.paywall.variationId)
                writer.member("paywall_ab_test_name", view.paywall.abTestName)
                writer.member("paywall_name", view.paywall.paywallName)
                writer.member("paywall_product_index", index)
            }
        }
    }

    private func writeProductIfKnown(_ productId: String, of view: PaywallViewState, to writer: inout JSONWriter) {
        guard storeProduct(productId, of: view) != nil else { return }
        writer.key("product")
        writeProduct(productId, of: view, to: &writer)
    }

    static func underlyingDetails(_ params: Fields) throws(WireError) -> JSONObject {
        var details = JSONObject()
        if let underlying = try params.optionalString("underlying_error") { details.set("underlying_error", .string(underlying)) }
        return details
    }
}

/// What the host said in `host_respond`: `result` (kind-specific) or `error`.
struct HostAnswer: Sendable {
    let result: Fields?
    let errorFields: Fields?

    init(_ params: Fields) throws(WireError) {
        result = try params.optionalObject("result")
        errorFields = try params.optionalObject("error")
        if result == nil && errorFields == nil {
            throw WireError.wrongParam("result", "host_respond needs result or error")
        }
    }

    /// The error the host reported, with `code` defaulting to the flow's failure code.
    func error(code: ErrorCode, fallback: String) -> WireError? {
        guard let errorFields else { return nil }
        var resolved = code
        if case .string(let text)? = errorFields.object["code"], let known = ErrorCode(rawValue: text) { resolved = known }
        var details = JSONObject()
        if case .string(let underlying)? = errorFields.object["underlying_error"] { details.set("underlying_error", .string(underlying)) }
        var message = fallback
        if case .string(let text)? = errorFields.object["message"] { message = text }
        return WireError(resolved, message, details: details)
    }

    /// `result.type`: success (with optional `expires_at`), user_cancelled, pending.
    var purchaseOutcome: Client.PurchaseOutcome {
        guard let result, case .string(let type)? = result.object["type"] else {
            return .failed(WireError(.purchaseFailed, "the host's purchase answer has no result.type"))
        }
        switch type {
        case "success":
            var expiresAt: Int?
            if case .string(let text)? = result.object["expires_at"] { expiresAt = ISODate.parse(text) }
            return .succeeded(expiresAt: expiresAt)
        case "user_cancelled": return .cancelled
        case "pending": return .pending
        default: return .failed(WireError(.purchaseFailed, "'\(type)' is not a purchase result (success, user_cancelled, pending)"))
        }
    }

    /// `result.product_ids` of a restore.
    var productIds: [String] {
        guard case .array(let ids)? = result?.object["product_ids"] else { return [] }
        return ids.compactMap { if case .string(let id) = $0 { return id } else { return nil } }
    }

    /// `result.products` of a products fetch, in the test store's product shape.
    func products() throws(WireError) -> [StoreProduct] {
        guard let result else { return [] }
        var products: [StoreProduct] = []
        for product in try result.objects("products") { products.append(try TestStore.loadProduct(product)) }
        return products
    }

    var retry: Bool {
        if case .bool(true)? = result?.object["retry"] { return true }
        return false
    }

    var valid: Bool {
        if case .bool(true)? = result?.object["valid"] { return true }
        return false
    }
}
