import PaywireModel
import PaywireWire

extension Purchases {
    /// Settles what the store restored: the backend validates the transactions
    /// and answers the profile (`POST /v1/restores`); without a backend the products are granted
    /// on the device, unverified, looked up in the store's catalog (fetched first when the store
    /// describes products only on request), not in whatever a view loaded. The result comes
    /// now, or later through `reply`.
    func settleRestore(productIds: [String], transactions: [StoreTransaction],
                       reply: @escaping RestoreReply) -> Result<RestoreSettlement, WireError>? {
        if backend != nil {
            let claims: [RestoreClaim]
            switch restoreClaims(transactions) {
            case .failure(let error): return .failure(error)
            case .success(let made): claims = made
            }
            sendRestore(claims[...], productIds: productIds, answers: RestoreAnswers(), reply: reply)
            return nil
        }
        let undescribed = productIds.filter { catalog.product($0) == nil }
        if !undescribed.isEmpty && store.describesProductsOnlyAfterFetch {
            let lookup: StoreReply = { [self] outcome in
                reply(self.lookedUp(outcome, productIds: productIds, transactions: transactions))
            }
            guard let outcome = store.start(.fetchProducts(undescribed), origin: nil, reply: lookup) else { return nil }
            return lookedUp(outcome, productIds: productIds, transactions: transactions)
        }
        return grantRestored(productIds, transactions)
    }


    private func lookedUp(_ outcome: StoreOutcome, productIds: [String], transactions: [StoreTransaction]) -> Result<RestoreSettlement, WireError> {
        switch outcome {
        case .products(.success(let described)): catalog.remember(described)
        case .products(.failure(let error)): return .failure(error)
        default: break
        }
        return grantRestored(productIds, transactions)
    }

    /// Grants, unverified, each restored product the store describes.
    private func grantRestored(_ productIds: [String], _ transactions: [StoreTransaction]) -> Result<RestoreSettlement, WireError> {
        var grants: [AccessDecision] = []
        for id in productIds {
            guard let product = catalog.product(id) else {
                log(.warn, "the store restored '\(id)' but does not describe it: no access is granted for it",
                    details: [("product_id", .string(id))])
                continue
            }
            let transaction = transactions.last { $0.vendorProductId == id }
            let facts = PurchaseFacts.resolve(productId: id, named: nil, transaction: transaction, product: product,
                                              purchasedAt: transaction?.purchasedAt ?? clock.nowMilliseconds(),
                                              storeExpiresAt: transaction?.expiresAt)
            grants.append(AccessRules.decide(facts))
        }
        if let error = profiles.grantLocally(grants) { return .failure(error) }
        return .success(settlement(productIds))
    }

    /// The backend's answer to one claim of a restore: its profile is the truth, applied now,
    /// and what it restored is added to `answers`. Offline, the restore fails with
    /// `network_failed` (the caller's view stays open).
    func restoreAnswered(_ outcome: HTTPOutcome, adding answers: RestoreAnswers) -> Result<RestoreAnswers, WireError> {
        let result: Result<RestoreAnswers, WireError>
        switch outcome {
        case .timedOut:
            result = .failure(WireError(.networkFailed, "the backend did not answer the restore in time"))
        case .failed(let code, let message):
            result = .failure(HTTPOutcome.transportError(code: code, message: "the restore could not reach the backend: \(message)"))
        case .response(let response) where (200..<300).contains(response.status):
            let answer: RestoreAnswer
            do throws(WireError) {
                answer = try RestoreAnswer.decode(response.body)
            } catch {
                result = .failure(error)
                break
            }
            let transferred = answer.transfers(to: profiles.profileId)
            if let error = profiles.applyBackend(answer.profile, profileId: profiles.profileId, transferred: transferred,
                                                 trust: response.trust) {
                result = .failure(error)
            } else {
                result = .success(answers.adding(answer, transferred: transferred))
            }
        case .response(let response):
            let code: ErrorCode = response.isRetryable ? .networkFailed : .restoreFailed
            result = .failure(WireError(code, "the backend answered the restore with HTTP \(response.status)",
                                        details: JSONObject([("status", .number(JSONNumber(response.status)))])))
        }
        return result
    }

    /// The restore's failure when nothing was restored and the backend kept purchases with
    /// their owner (its transfer policy is `keep`): the app can tell the user the purchases
    /// belong to another account.
    static func keptByOwner(_ answers: RestoreAnswers) -> WireError? {
        let kept = answers.kept
        guard answers.restoredProductIds.isEmpty, !kept.isEmpty else { return nil }
        return WireError(.belongsToAnotherProfile,
                         "the store's purchases belong to another profile, and the backend keeps them there (its transfer policy is keep)",
                         details: JSONObject([("transaction_ids", .array(kept.map { .string($0) }))]))
    }

    func settlement(_ productIds: [String]) -> RestoreSettlement {
        RestoreSettlement(restoredProductIds: productIds,
                          hasActiveAccess: !profiles.current.activeAccessLevels(now: profiles.accessNow()).isEmpty)
    }


    static func restoreResponse(_ result: Result<RestoreSettlement, WireError>, profiles: ProfileStore, now: WideInt) -> CallResponse {
        switch result {
        case .failure(let error): return .failure(error)
        case .success(let settlement):
            let profile = profiles.current
            return .success { writer in
                writer.object { writer in
                    writer.key("restored_product_ids")
                    writer.array { writer in for id in settlement.restoredProductIds { writer.string(id) } }
                    writer.key("profile")
                    profile.write(to: &writer, now: now)
                    settlement.transferred.writeMember(to: &writer)
                }
            }
        }
    }
}
