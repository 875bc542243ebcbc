import PaywireModel
import PaywireWire
import ServerDomain
import ServerStore

/// `POST /v1/purchases` and `POST /v1/restores`: store transactions read by the model's claims
/// (`PurchaseClaim`, `RestoreClaim`: the rules the device kept them by), checked, recorded and
/// granted; the answer carries the profile as it now stands.
extension API {
    /// `text`: the request as it came, kept beside the purchase.
    func postPurchase(parsed: JSONValue?, text: String) async throws -> Answer {
        var post: PurchasePost
        do {
            post = PurchasePost(try PurchaseClaim.decode(parsed: parsed))
        } catch {
            return .invalid(error)
        }
        var refusal: Refusal?
        do {
            post.claim = try await verified(post.claim)
        } catch {
            refusal = error
        }
        let outcome = try await setup.store.recordPurchase(post, product: setup.products[post.claim.vendorProductId],
                                                           refusal: refusal ?? check(post.claim), request: text,
                                                           now: clock.nowMilliseconds())
        let profile = try await answerProfile(post.profileId)
        switch outcome {
        case .success(let status):
            ServerMetrics.purchase(status.rawValue)
            return .json(.ok, PurchaseAnswer.encode(.kept(transactionId: post.claim.transactionId, status: status), profileId: post.profileId,
                                                    profile: profile))
        case .failure(let refusal):
            ServerMetrics.purchase(refusal.code.rawValue)
            return .json(.unprocessableContent, PurchaseAnswer.encode(.refused(code: refusal.code.rawValue, message: refusal.message),
                                                                      profileId: post.profileId, profile: profile))
        }
    }

    func postRestore(parsed: JSONValue?) async throws -> Answer {
        var post: RestorePost
        do {
            post = RestorePost(try RestoreClaim.decode(parsed: parsed))
        } catch where error == RestoreClaim.tooManyTransactions {
            // Refused before any transaction is read, verified or logged.
            return .error(.contentTooLarge, "too_many_transactions", error.message,
                          extra: [("max_transactions", .number(JSONNumber(RestoreClaim.maxTransactions)))])
        } catch {
            return .invalid(error)
        }
        var refusals: [String: Refusal] = [:]
        for index in post.claims.indices {
            do {
                post.claims[index] = try await verified(post.claims[index])
                refusals[post.claims[index].transactionId] = check(post.claims[index])
            } catch {
                refusals[post.claims[index].transactionId] = error
            }
        }
        let outcome = try await setup.store.recordRestore(post, products: setup.products, refusals: refusals,
                                                          policy: setup.transferPolicy, now: clock.nowMilliseconds())
        for restored in outcome.restored {
            ServerMetrics.purchase(PurchaseStatus.verified.rawValue)
            if restored.from != nil { ServerMetrics.transfer(TransferReason.restore.rawValue) }
        }
        for (_, refusal) in outcome.refused { ServerMetrics.purchase(refusal?.code.rawValue ?? StorageRules.keptCode) }
        return .json(.ok, RestoreAnswer.encode(
            profileId: post.profileId, profile: try await answerProfile(post.profileId),
            restored: outcome.restored.map {
                RestoreAnswer.Restored(transactionId: $0.claim.transactionId, vendorProductId: $0.claim.vendorProductId, fromProfileId: $0.from)
            },
            refused: outcome.refused.map { claim, refusal in
                RestoreAnswer.Refused(transactionId: claim.transactionId, code: refusal?.code ?? .belongsToAnotherProfile,
                                      message: refusal?.message ?? StorageRules.keptMessage(claim))
            }))
    }

    /// A purchase a store's own message made known (a Play link, a Stripe event), not the
    /// device's post: recorded for `owner`, its own original transaction, verified by that
    /// message. Idempotent on the transaction id; a refusal (another owner or product) is the
    /// caller's to report.
    func recordStorePurchase(owner: String, transactionId: String, productId: String, product: StoreProduct, store: StoreName,
                             verification: String, purchasedAt: Int, environment: StoreEnvironment, text: String,
                             attribution: PurchaseAttribution? = nil) async throws -> Result<PurchaseStatus, Refusal> {
        let claim = TransactionClaim(transactionId: transactionId, originalTransactionId: transactionId, vendorProductId: productId,
                                     verification: verification, purchasedAt: purchasedAt, environment: environment, store: store,
                                     signedTransaction: nil)
        let post = PurchasePost(profileId: owner, claim: StoreClaim(claim, text: text), amount: nil, currencyCode: nil,
                                state: .purchased, attribution: attribution)
        return try await setup.store.recordPurchase(post, product: product, refusal: nil, request: text, now: clock.nowMilliseconds())
    }

    /// The claim as its StoreKit 2 JWS says, once verified like an App Store notification
    /// (chain, Apple's markers, ES256, app, environment); a claim without one as sent. A JWS that
    /// fails is refused with the notification route's code.
    func verified(_ claim: StoreClaim) async throws(Refusal) -> StoreClaim {
        guard let jws = claim.signedTransaction else { return claim }
        guard claim.store == .appStore else {
            throw Refusal(code: .verificationFailed, message: "signed_transaction is an App Store transaction; this claim's store is '\(claim.store)'")
        }
        let payload: JSONValue
        do {
            payload = try await setup.appStore.transaction(jws, path: "signed_transaction")
        } catch {
            guard let code = Refusal.Code(rawValue: error.code) else {
                throw Refusal(code: .verificationFailed, message: "\(error.code): \(error.message)")
            }
            throw Refusal(code: code, message: error.message)
        }
        return try SignedTransaction.claim(payload, sent: claim)
    }

    /// Why a store's claim cannot be granted, checked without the store: the store is one this
    /// server trusts (or the claim's App Store signature was verified), the product is in its
    /// catalog, and a test-store claim carries the test store's signature (with the test store
    /// on: --dev or --test-signing-key).
    func check(_ claim: StoreClaim) -> Refusal? {
        if claim.store == .test, setup.testStoreKey == nil {
            return Refusal(code: .unsupportedStore, message: "the test store is off on this server (--dev or --test-signing-key turns it on)")
        }
        if claim.store != .test && claim.signed == nil && !setup.trustHostStores {
            return Refusal(code: .unsupportedStore,
                           message: "store '\(claim.store)' is not checked here; start the server with --trust-host-stores to grant it")
        }
        if setup.products[claim.vendorProductId] == nil {
            return Refusal(code: .unknownProduct, message: "product '\(claim.vendorProductId)' is not in this server's catalog (--products)")
        }
        if claim.store == .test, let key = setup.testStoreKey, !TestSignature.isValid(claim.claim, key: key) {
            return Refusal(code: .verificationFailed, message: "the verification is not the test store's signature of this transaction")
        }
        return nil
    }
}
