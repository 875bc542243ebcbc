import PaywireModel
import PaywireWire

/// `store: {"type": "test", ...}`: a product catalog from config, each product with a scripted
/// purchase outcome and the access level it grants; a scripted restore and scripted current
/// entitlements (`store.current_entitlements`, none by default); products fetches that
/// fail a number of times before succeeding; and optionally a fixed clock. Everything a test
/// scripts lives here, behind the same port as the real stores.
final class TestStore: StoreAdapter {
    private let catalog: [String: StoreProduct]
    private let purchaseScripts: [String: ScriptedOutcome]
    private let restoreScript: ScriptedOutcome
    /// `store.current_entitlements`: what the store says the user owns now (none by default).
    private let entitlementsScript: ScriptedOutcome
    private let fetchFailure: WireError?
    private var fetchFailuresLeft: Int
    /// `store.now`: a fixed clock for reproducible expiry dates.
    let fixedNow: WideInt?
    /// `store.signing_key`: the dev key transactions are signed with.
    private let signingKey: String
    /// When a transaction was made (without `store.now`), and its random id.
    private let clock: Clock
    private let random: RandomSource

    /// What a `store: {type: "test", ...}` config says, read and checked when the config is.
    struct Script: Sendable {
        let catalog: [StoreProduct]
        let purchaseScripts: [String: ScriptedOutcome]
        let restoreScript: ScriptedOutcome
        let fetchFailure: WireError?
        let fetchFailures: Int
        let fixedNow: WideInt?
        let signingKey: String
        let entitlementsScript: ScriptedOutcome
    }

    init(_ script: Script, clock: Clock, random: RandomSource) {
        signingKey = script.signingKey
        entitlementsScript = script.entitlementsScript
        var byId: [String: StoreProduct] = [:]
        for product in script.catalog { byId[product.vendorProductId] = product }
        catalog = byId
        purchaseScripts = script.purchaseScripts
        restoreScript = script.restoreScript
        fetchFailure = script.fetchFailure
        fetchFailuresLeft = script.fetchFailures
        fixedNow = script.fixedNow
        self.clock = clock
        self.random = random
    }

    var unavailable: WireError? { nil }
    var describesProductsOnlyAfterFetch: Bool { false }

    func knownProducts(_ ids: [String]) -> [StoreProduct] { ids.compactMap { catalog[$0] } }

    func plan(_ operation: StoreOperation) -> StorePlan {
        switch operation {
        case .fetchProducts: return .now(delayedOutcome(of: operation))
        case .purchase(let product): return plan(script(for: product.productId), operation)
        case .restore: return plan(restoreScript, operation)
        case .currentEntitlements: return plan(entitlementsScript, operation)
        case .finishTransaction, .refreshEligibility: return .now(delayedOutcome(of: operation))
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
        case .purchase(let product): return .purchase(purchaseOutcome(script(for: product.productId), product.productId))
        case .restore: return .restore(restoreOutcome())
        case .currentEntitlements:
            if entitlementsScript.kind == .failed {
                return .entitlements(.failure(entitlementsScript.error ?? WireError(.restoreFailed, "the store could not say what the user owns")))
            }
            return .entitlements(.success(entitlementsScript.productIds.map { transaction($0, forged: entitlementsScript.forgeVerification) }))
        case .finishTransaction: return .done(nil)
        case .refreshEligibility(let ids):
            // Validation settles `unknown` as each product's script says.
            var settled: [String: OfferEligibility] = [:]
            for product in knownProducts(ids) where product.eligibility == .unknown { settled[product.vendorProductId] = product.eligibilityAfterValidation }
            return .eligibility(settled)
        }
    }

    /// A scripted purchase; a success or a pending purchase comes with a signed transaction.
    private func purchaseOutcome(_ script: ScriptedOutcome, _ productId: String) -> PurchaseOutcome {
        switch script.kind {
        case .success: return .succeeded(transaction: transaction(productId, forged: script.forgeVerification), expiresAt: nil)
        case .user_cancelled: return .cancelled
        case .pending: return .pending(transaction(productId, forged: script.forgeVerification))
        case .failed: return .failed(script.error ?? WireError(.purchaseFailed, "the purchase failed"))
        }
    }

    /// The scripted restore: a signed transaction for each product it names.
    private func restoreOutcome() -> RestoreOutcome {
        if restoreScript.kind == .failed { return .failed(restoreScript.error ?? WireError(.restoreFailed, "the restore failed")) }
        let transactions = restoreScript.productIds.map { transaction($0, forged: restoreScript.forgeVerification) }
        return .restored(productIds: restoreScript.productIds, transactions: transactions)
    }

    /// A new sandbox transaction of the test store, signed with its key (or, forged, with another).
    private func transaction(_ productId: String, forged: Bool) -> StoreTransaction {
        let id = "test-" + random.uuidV4()
        let purchasedAt = fixedNow ?? clock.nowMilliseconds()
        let key = forged ? "not-" + signingKey : signingKey
        return StoreTransaction(transactionId: id, originalTransactionId: id, vendorProductId: productId, purchasedAt: purchasedAt,
                                environment: .sandbox, store: .test,
                                verification: TestSignature.sign(transactionId: id, originalTransactionId: id, vendorProductId: productId,
                                                                 purchasedAt: purchasedAt, key: key),
                                expiresAt: nil)
    }

    func outcome(of operation: StoreOperation, answer: HostOutcome) -> StoreOutcome { delayedOutcome(of: operation) }

    private func script(for productId: String) -> ScriptedOutcome { purchaseScripts[productId] ?? .success }

    private func plan(_ script: ScriptedOutcome, _ operation: StoreOperation) -> StorePlan {
        script.delayMilliseconds > 0 ? .after(script.delayMilliseconds) : .now(delayedOutcome(of: operation))
    }

    /// Reads `store` of type test from config.
    static func load(_ fields: Fields) throws(WireError) -> Script {
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
        var fixedNow: WideInt?
        if let now = try fields.optionalString("now") {
            guard let parsed = ISODate.parse(now) else {
                throw WireError.wrongParam(fields.fieldPath("now"), "'\(now)' is not an ISO 8601 UTC time like 2024-01-15T10:30:00.000Z")
            }
            fixedNow = parsed
        }
        let entitlements = try fields.optionalObject("current_entitlements").map { (script: Fields) throws(WireError) in
            try ScriptedOutcome.load(script, failureCode: .restoreFailed)
        } ?? .success
        let key = try fields.optionalString("signing_key") ?? TestSignature.defaultKey
        guard !key.isEmpty else { throw WireError.wrongParam(fields.fieldPath("signing_key"), "must not be empty") }
        return Script(catalog: catalog, purchaseScripts: scripts, restoreScript: restore, fetchFailure: fetchFailure,
                      fetchFailures: fetchFailures, fixedNow: fixedNow, signingKey: key, entitlementsScript: entitlements)
    }
}

struct ScriptedOutcome: Sendable {
    enum Kind: String, WireEnum, Sendable { case success, user_cancelled, pending, failed }
    let kind: Kind
    /// For `failed`: the error the flow reports.
    let error: WireError?
    /// How long the store "takes", so tests can race a second purchase or a dismissal.
    let delayMilliseconds: WideInt
    /// For restores: the products the store says the user owns.
    let productIds: [String]
    /// Sign the transaction with a key the backend does not know (a forged receipt).
    var forgeVerification = false

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
        var outcome = ScriptedOutcome(kind: kind, error: error,
                                      delayMilliseconds: try fields.optionalWide("delay_ms", in: 0...600_000) ?? 0, productIds: ids)
        outcome.forgeVerification = try fields.optionalBool("forge_verification") ?? false
        return outcome
    }
}
