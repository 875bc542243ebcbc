/// `store: {"type": "test", ...}`: a product catalog from config, each product with a scripted
/// purchase outcome and the access level it grants; a scripted restore; products fetches that
/// fail a number of times before succeeding; and optionally a fixed clock. Everything a test
/// scripts lives here, behind the same port as the real stores.
final class TestStore: StoreAdapter {
    private let catalog: [String: StoreProduct]
    private let purchaseScripts: [String: ScriptedOutcome]
    private let restoreScript: ScriptedOutcome
    private let fetchFailure: WireError?
    private var fetchFailuresLeft: Int
    /// `store.now`: a fixed clock for reproducible expiry dates.
    let fixedNow: Int?

    init(catalog: [StoreProduct], purchaseScripts: [String: ScriptedOutcome], restoreScript: ScriptedOutcome,
         fetchFailure: WireError?, fetchFailures: Int, fixedNow: Int?) {
        var byId: [String: StoreProduct] = [:]
        for product in catalog { byId[product.vendorProductId] = product }
        self.catalog = byId
        self.purchaseScripts = purchaseScripts
        self.restoreScript = restoreScript
        self.fetchFailure = fetchFailure
        self.fetchFailuresLeft = fetchFailures
        self.fixedNow = fixedNow
    }

    var unavailable: WireError? { nil }
    var describesProductsOnlyAfterFetch: Bool { false }

    func knownProducts(_ ids: [String]) -> [StoreProduct] { ids.compactMap { catalog[$0] } }

    func plan(_ operation: StoreOperation) -> StorePlan {
        switch operation {
        case .fetchProducts: return .now(delayedOutcome(of: operation))
        case .purchase(let product): return plan(script(for: product.productId), operation)
        case .restore: return plan(restoreScript, operation)
        }
    }

    func delayedOutcome(of operation: StoreOperation) -> StoreOutcome {
        switch operation {
        case .fetchProducts(let ids):
            if fetchFailuresLeft > 0, let fetchFailure {
                fetchFailuresLeft -= 1
                return .products(.failure(fetchFailure))
            }
            return .products(.success(knownProducts(ids)))
        case .purchase(let product): return .purchase(script(for: product.productId).purchaseOutcome)
        case .restore: return .restore(restoreScript.restoreOutcome)
        }
    }

    func outcome(of operation: StoreOperation, answer: HostOutcome) -> StoreOutcome { delayedOutcome(of: operation) }

    private func script(for productId: String) -> ScriptedOutcome { purchaseScripts[productId] ?? .success }

    private func plan(_ script: ScriptedOutcome, _ operation: StoreOperation) -> StorePlan {
        script.delayMilliseconds > 0 ? .after(script.delayMilliseconds) : .now(delayedOutcome(of: operation))
    }

    /// Reads `store` of type test from config.
    static func load(_ fields: Fields) throws(WireError) -> TestStore {
        var catalog: [StoreProduct] = []
        var scripts: [String: ScriptedOutcome] = [:]
        var seen = Set<String>()
        if fields.optional("products") != nil {
            for product in try fields.objects("products") {
                let loaded = try StoreProduct.load(product)
                guard seen.insert(loaded.vendorProductId).inserted else {
                    throw WireError.wrongParam(product.fieldPath("vendor_product_id"), "duplicate product '\(loaded.vendorProductId)'")
                }
                catalog.append(loaded)
                if let script = try product.optionalObject("purchase") {
                    scripts[loaded.vendorProductId] = try ScriptedOutcome.load(script, failureCode: .purchaseFailed)
                }
            }
        }
        let restore = try fields.optionalObject("restore").map { (restore: Fields) throws(WireError) in
            try ScriptedOutcome.load(restore, failureCode: .restoreFailed)
        } ?? .success
        var fetchFailure: WireError?
        var fetchFailures = 0
        if let fetch = try fields.optionalObject("fetch_products") {
            fetchFailures = try fetch.optionalInt("fail_times", in: 0...1000) ?? 1
            let scripted = Fields(JSONObject([("type", .string("failed"))] + fetch.object.members.filter { $0.key != "fail_times" && $0.key != "type" }),
                                  path: fetch.path)
            fetchFailure = try ScriptedOutcome.load(scripted, failureCode: .productsLoadingFailed).error
        }
        var fixedNow: Int?
        if let now = try fields.optionalString("now") {
            guard let parsed = ISODate.parse(now) else {
                throw WireError.wrongParam(fields.fieldPath("now"), "'\(now)' is not an ISO 8601 UTC time like 2024-01-15T10:30:00.000Z")
            }
            fixedNow = parsed
        }
        return TestStore(catalog: catalog, purchaseScripts: scripts, restoreScript: restore,
                         fetchFailure: fetchFailure, fetchFailures: fetchFailures, fixedNow: fixedNow)
    }
}

struct ScriptedOutcome: Sendable {
    enum Kind: String, CaseIterable, Sendable { case success, user_cancelled, pending, failed }
    let kind: Kind
    /// For `failed`: the error the flow reports.
    let error: WireError?
    /// How long the store "takes", so tests can race a second purchase or a dismissal.
    let delayMilliseconds: Int
    /// For restores: the products the store says the user owns.
    let productIds: [String]

    static let success = ScriptedOutcome(kind: .success, error: nil, delayMilliseconds: 0, productIds: [])

    /// `{type, code?, message?, underlying_error?, delay_ms?, product_ids?}`.
    static func load(_ fields: Fields, failureCode: ErrorCode) throws(WireError) -> ScriptedOutcome {
        guard let kind = try fields.optionalEnum("type", Kind.self) else { throw WireError.wrongParam(fields.fieldPath("type"), "is required") }
        var error: WireError?
        if kind == .failed {
            let code = try fields.optionalString("code").map { text throws(WireError) -> ErrorCode in
                guard let code = ErrorCode(rawValue: text) else { throw WireError.wrongParam(fields.fieldPath("code"), "'\(text)' is not an error code") }
                return code
            } ?? failureCode
            var details = JSONObject()
            if let underlying = try fields.optionalString("underlying_error") { details.set("underlying_error", .string(underlying)) }
            error = WireError(code, try fields.optionalString("message") ?? "the test store was scripted to fail", details: details)
        }
        var ids: [String] = []
        if fields.optional("product_ids") != nil {
            for (index, element) in try fields.array("product_ids").enumerated() {
                guard case .string(let id) = element, !id.isEmpty else {
                    throw WireError.wrongParam("\(fields.fieldPath("product_ids"))[\(index)]", "expected a product id")
                }
                ids.append(id)
            }
        }
        return ScriptedOutcome(kind: kind, error: error,
                               delayMilliseconds: try fields.optionalInt("delay_ms", in: 0...600_000) ?? 0, productIds: ids)
    }
}

extension ScriptedOutcome {
    var purchaseOutcome: PurchaseOutcome {
        switch kind {
        case .success: return .succeeded(expiresAt: nil)
        case .user_cancelled: return .cancelled
        case .pending: return .pending
        case .failed: return .failed(error ?? WireError(.purchaseFailed, "the purchase failed"))
        }
    }

    var restoreOutcome: RestoreOutcome {
        kind == .failed ? .failed(error ?? WireError(.restoreFailed, "the restore failed")) : .restored(productIds)
    }
}
