/// Answers the core's host requests that this binding can: the `store.*` ones (and
/// `observer.purchase`) through the app's ``PaywireStore``, and a view's (`products.retry`,
/// `promo_code.validate`, `web_payment.open`) through the controller that holds the view. The
/// rest (`http`, or the store's without a ``PaywireStore``) are the app's to answer, from
/// ``PaywireClient/events``; an unanswered request fails its flow at its deadline.
enum HostRequests {
    /// An answer to one request: `host_respond`'s `result`, or its `error`.
    enum Answer: Sendable {
        case result(JSONObject)
        case error(code: ErrorCode?, message: String, underlyingError: String?)
    }

    /// On the pump's thread: starts answering `request` when this binding answers its kind.
    static func route(_ request: HostRequestEvent, event: PaywireEvent, core: ClientCore) {
        switch request.kind {
        case .storeFetchProducts, .storePurchase, .storeRestore, .storeFinishTransaction, .storeRefreshEligibility,
            .storeCurrentEntitlements, .observerPurchase:
            guard let store = core.store else { return }
            Task {
                let answer = await StoreBridge.answer(request, store: store)
                respond(core, to: request.requestId, with: answer)
            }
        default:
            if let view = request.view?.id { core.routes.route(event, view: view) }
        }
    }

    /// Sends the answer (`host_respond`); one the core no longer waits for is refused there and
    /// logged by the core.
    static func respond(_ core: ClientCore, to requestId: String, with answer: Answer) {
        let params: HostRespondParams
        switch answer {
        case .result(let result):
            params = HostRespondParams(requestId: requestId, result: result)
        case .error(let code, let message, let underlyingError):
            params = HostRespondParams(requestId: requestId,
                                       error: HostRespondParamsError(code: code, message: message, underlyingError: underlyingError))
        }
        _ = core.submit("host_respond", params.jsonValue)
    }

    /// The answer for an error the app's code threw, under `fallback` unless it names its code.
    static func failure(_ error: any Error, fallback: ErrorCode) -> Answer {
        if let error = error as? PaywireError {
            return .error(code: error.code, message: error.message, underlyingError: error.details["underlying_error"]?.stringValue)
        }
        return .error(code: fallback, message: "\(error)", underlyingError: String(describing: type(of: error)))
    }
}

/// Plays a `store.*` request on the app's ``PaywireStore``.
enum StoreBridge {
    static func answer(_ request: HostRequestEvent, store: any PaywireStore) async -> HostRequests.Answer {
        let payload = JSONValue.object(request.payload)
        let fallback: ErrorCode = switch request.kind {
        case .storeFetchProducts, .storeRefreshEligibility: .productsLoadingFailed
        case .storeRestore, .storeCurrentEntitlements: .restoreFailed
        default: .purchaseFailed
        }
        do {
            switch request.kind {
            case .storeFetchProducts:
                let ids: [String] = try ModelReader(payload, "store.fetch_products").required("product_ids")
                return .result(["products": try await store.products(withIds: ids).jsonValue])
            case .storePurchase, .observerPurchase:
                let reader = try ModelReader(payload, request.kind.rawValue)
                let product: EventProduct = try reader.required("product")
                let offer: JSONObject? = try reader.optional("offer")
                let purchase = try await store.purchase(StorePurchaseRequest(
                    vendorProductId: product.vendorProductId, product: product, offer: offer,
                    isObserved: request.kind == .observerPurchase))
                return .result(purchase.result)
            case .storeRestore:
                return .result(try await store.restorePurchases().result)
            case .storeCurrentEntitlements:
                return .result(["transactions": try await store.currentEntitlements().jsonValue])
            case .storeFinishTransaction:
                let reader = try ModelReader(payload, "store.finish_transaction")
                try await store.finish(transactionId: try reader.required("transaction_id"),
                                       vendorProductId: try reader.required("vendor_product_id"),
                                       consume: try reader.optional("consume") ?? false)
                return .result([:])
            default:
                let ids: [String] = try ModelReader(payload, "store.refresh_eligibility").required("product_ids")
                let eligibility = try await store.refreshEligibility(productIds: ids)
                return .result(["eligibility": eligibility.jsonValue])
            }
        } catch let error as JSONShapeError {
            return .error(code: .decodingFailed, message: "the \(request.kind) request is not as this binding reads it: \(error)",
                          underlyingError: nil)
        } catch {
            return HostRequests.failure(error, fallback: fallback)
        }
    }
}
