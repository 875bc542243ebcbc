/// The view's events as the delegate's calls, and the view's host requests answered by it.
extension PaywallController {
    func handle(_ event: PaywireEvent) {
        guard let delegate else {
            if case .hostRequest(let request) = event { answerWithoutDelegate(request) }
            return
        }
        switch event {
        case .paywallViewDidAppear: delegate.paywallControllerDidAppear(self)
        case .paywallViewDidDisappear: delegate.paywallControllerDidDisappear(self)
        case .paywallViewDidDismiss(let dismissed): delegate.paywallController(self, didDismissWith: dismissed.reason)
        case .paywallViewDidPerformAction(let performed): delegate.paywallController(self, didPerform: PaywallAction(performed.action))
        case .paywallViewDidSelectProduct(let selected):
            withProduct(selected.productId, selected.product?.jsonValue, event) { delegate.paywallController(self, didSelectProduct: $0) }
        case .paywallViewDidStartPurchase(let started):
            withProduct(started.product, event) { delegate.paywallController(self, didStartPurchase: $0) }
        case .paywallViewDidFinishPurchase(let finished):
            withProduct(finished.product, event) { product in
                if let result = finished.purchaseResult.purchaseResult {
                    delegate.paywallController(self, didFinishPurchase: product, purchaseResult: result)
                } else {
                    delegate.paywallController(self, didFailPurchase: product, error: .binding(
                        .decodingFailed, "the purchase finished with a result this binding does not know",
                        details: ["purchase_result": finished.purchaseResult.jsonValue]))
                }
            }
        case .paywallViewDidFailPurchase(let failed):
            withProduct(failed.product, event) { delegate.paywallController(self, didFailPurchase: $0, error: failed.error) }
        case .paywallViewDidStartRestore: delegate.paywallControllerDidStartRestore(self)
        case .paywallViewDidFinishRestore(let restored): delegate.paywallController(self, didFinishRestoreWith: restored.profile)
        case .paywallViewDidFailRestore(let failed): delegate.paywallController(self, didFailRestoreWith: failed.error)
        case .paywallViewDidFailRendering(let failed): delegate.paywallController(self, didFailRenderingWith: failed.error)
        case .paywallViewDidPartiallyLoadProducts(let partial):
            delegate.paywallController(self, didPartiallyLoadProducts: partial.failedProductIds)
        case .paywallViewDidFinishWebPaymentNavigation(let finished):
            let product = self.product(finished.product.vendorProductId, described: finished.product.jsonValue)
            delegate.paywallController(self, didFinishWebPaymentNavigation: product, error: finished.error)
            if let error = finished.error, let product { delegate.paywallController(self, didFailWebPaymentNavigation: product, error: error) }
        case .paywallViewDidRequestDeepLink(let link): delegate.paywallController(self, onPostPurchaseDeepLink: link.url)
        case .paywallViewDidRequestNextStep(let step): delegate.paywallController(self, onPostPurchaseNextStep: step.stepId)
        case .hostRequest(let request): answer(request, delegate: delegate)
        default:
            // did_fail_loading_products is asked about through its products.retry request;
            // did_validate_promo_code confirms the delegate's own answer. Both are on client.events.
            break
        }
    }

    private func withProduct(_ product: EventProduct, _ event: PaywireEvent, _ call: (PaywallProduct) -> Void) {
        withProduct(product.vendorProductId, product.jsonValue, event, call)
    }

    /// Calls with the product the event names; when neither the app nor the store described it,
    /// says so as a rendering failure instead of making a product up.
    private func withProduct(_ id: String, _ described: JSONValue?, _ event: PaywireEvent, _ call: (PaywallProduct) -> Void) {
        if let product = product(id, described: described) {
            call(product)
        } else {
            delegate?.paywallController(self, didFailRenderingWith: .binding(
                .decodingFailed, "\(event.name) names product \(id), which neither the app passed nor the store described",
                details: ["event": event.jsonValue]))
        }
    }

    private func answer(_ request: HostRequestEvent, delegate: any PaywallControllerDelegate) {
        let payload = JSONValue.object(request.payload)
        switch request.kind {
        case .productsRetry:
            let error = payload["error"].flatMap { try? PaywireError(json: $0) }
                ?? .binding(.productsLoadingFailed, "the products could not be loaded")
            let retry = delegate.paywallController(self, didFailLoadingProductsWith: error)
            session.respond(to: request.requestId, with: .result(["retry": .bool(retry)]))
        case .promoCodeValidate:
            let code = payload["code"]?.stringValue ?? ""
            Task { [session] in
                let valid = await delegate.paywallController(self, onPromoCodeSubmit: code)
                session.respond(to: request.requestId, with: .result(["valid": .bool(valid)]))
            }
        case .webPaymentOpen:
            let described = payload["product"]
            guard let id = described?["vendor_product_id"]?.stringValue, let product = product(id, described: described) else {
                session.respond(to: request.requestId, with: .error(
                    code: .webPaymentFailed, message: "the web payment names a product the app did not pass", underlyingError: nil))
                return
            }
            let opened = delegate.paywallController(self, shouldContinueWebPaymentNavigation: product)
            session.respond(to: request.requestId, with: .result(["opened": .bool(opened)]))
        default:
            break
        }
    }

    /// With no delegate, the view's questions get the delegate's default answers at once rather
    /// than waiting for their deadline.
    private func answerWithoutDelegate(_ request: HostRequestEvent) {
        switch request.kind {
        case .productsRetry: session.respond(to: request.requestId, with: .result(["retry": false]))
        case .promoCodeValidate: session.respond(to: request.requestId, with: .result(["valid": false]))
        case .webPaymentOpen: session.respond(to: request.requestId, with: .result(["opened": false]))
        default: break
        }
    }
}
