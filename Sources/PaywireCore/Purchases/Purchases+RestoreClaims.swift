import PaywireModel
import PaywireWire

/// A restore sent to the backend in claims of at most `RestoreClaim.maxTransactions`, one after
/// another (`POST /v1/restores`), and settled on all their answers.
extension Purchases {
    /// The claims of a restore: every transaction the store restored, `RestoreClaim.maxTransactions`
    /// a claim (the backend takes no more in one), each with its own event id; one empty claim
    /// when the store restored nothing, so the backend still answers the profile.
    func restoreClaims(_ transactions: [StoreTransaction]) -> Result<[RestoreClaim], WireError> {
        let profile = profiles.current
        var claims: [RestoreClaim] = []
        var start = 0
        repeat {
            let end = min(start + RestoreClaim.maxTransactions, transactions.count)
            let claim = RestoreClaim(eventId: random.uuidV7(milliseconds: clock.nowMilliseconds()), profileId: profile.profileId,
                                     customerUserId: profile.customerUserId, transactions: transactions[start..<end].map { $0.claim })
            do throws(WireError) {
                try claim.validate()
            } catch {
                return .failure(error)
            }
            claims.append(claim)
            start = end
        } while start < transactions.count
        return .success(claims)
    }

    /// Sends a restore's claims one after another, each once the backend answered the one
    /// before: no restored transaction is left out for the cap, and the device never holds more
    /// than one claim in flight. The first failure ends the restore (what the backend answered
    /// before it stands: a restore again sends everything again, and the backend keeps each
    /// transaction once); after the last answer the restore settles on them all.
    func sendRestore(_ claims: ArraySlice<RestoreClaim>, productIds: [String], answers: RestoreAnswers,
                     reply: @escaping RestoreReply) {
        guard let backend, let claim = claims.first else {
            reply(settled(answers, productIds: productIds))
            return
        }
        backend.send(method: "POST", url: backend.url(route: "restores"), headers: [("accept", "application/json")],
                     body: claim.encode(), carriesAccess: true, profileId: claim.profileId) { [self] outcome in
            switch self.restoreAnswered(outcome, adding: answers) {
            case .failure(let error): reply(.failure(error))
            case .success(let gathered): self.sendRestore(claims.dropFirst(), productIds: productIds, answers: gathered, reply: reply)
            }
        }
    }

    private func settled(_ answers: RestoreAnswers, productIds: [String]) -> Result<RestoreSettlement, WireError> {
        if let kept = Purchases.keptByOwner(answers) { return .failure(kept) }
        var settled = settlement(answers.listsRestored ? answers.restoredProductIds : productIds)
        settled.transferred = answers.transferred
        return .success(settled)
    }
}

/// What the backend's answers to a restore's claims said, gathered claim after claim.
struct RestoreAnswers {
    /// The products the answers restored, in their order.
    var restoredProductIds: [String] = []
    /// False once an answer did not list what it restored (an older backend): the restore then
    /// reports the products the store restored.
    var listsRestored = true
    /// Transactions the backend kept with the profile that owns them.
    var kept: [String] = []
    var transferred: [Transfer] = []

    func adding(_ answer: RestoreAnswer, transferred more: [Transfer]) -> RestoreAnswers {
        var next = self
        if let restored = answer.restored {
            next.restoredProductIds += restored.map { $0.vendorProductId }
        } else {
            next.listsRestored = false
        }
        next.kept += answer.refused.filter { $0.code == .belongsToAnotherProfile }.map { $0.transactionId }
        next.transferred += more
        return next
    }
}
