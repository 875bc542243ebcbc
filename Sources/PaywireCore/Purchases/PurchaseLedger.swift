import PaywireModel
import PaywireWire

/// What the backend said of a transaction kept for it.
enum PurchaseVerdict: Sendable {
    case accepted
    /// A 4xx answer: its status, and the code and message of its error body.
    case refused(status: Int, code: String?, message: String?)
}

/// A transaction kept for the backend, watched against the store's own deadline.
struct StoreDeadline: Sendable {
    let transaction: StoreTransaction
    let consumable: Bool
    var timer: UInt64?
    /// The store was told it is done (`consume: false`) before the backend answered.
    var acknowledged = false
}

/// The transactions kept for the backend, from the moment they are kept until the backend's
/// verdict (`PurchaseAnswers`, heard from the outbox): their local grants stand meanwhile, the
/// store's deadlines are watched, and the store transaction is finished once the backend has it.
///
/// Store deadlines do not wait on the backend. Google Play refunds a purchase not acknowledged
/// within three days, and a transaction is finished only once the backend has it; so a purchase
/// still unanswered `store.acknowledge_after_ms` after it was made is acknowledged
/// (`store.finish_transaction` with `consume: false`) while its record keeps going to the
/// backend. A consumable is consumed only on the backend's word, when it comes.
final class PurchaseLedger: PurchaseAnswers {
    private let profiles: ProfileStore
    private let store: StoreGateway
    private let timers: Timers
    private let log: Log
    /// How long after a purchase the store is told it is done even without the backend's word.
    private let acknowledgeAfter: WideInt
    /// Store deadlines of transactions kept for the backend, by transaction id.
    private var deadlines: [String: StoreDeadline] = [:]
    /// What each money record waiting for the backend holds, by its event id: read once, when
    /// it was kept (or when this run found it in the queue), not again from its bytes.
    private var kept: [String: PurchaseRecord.Kept] = [:]
    /// Those waiting for the backend's verdict on a transaction (a test purchase's call), by
    /// transaction id, with their time limit's timer.
    private var verdictWaiters: [String: (timer: UInt64, reply: (PurchaseVerdict?) -> Void)] = [:]

    init(profiles: ProfileStore, store: StoreGateway, timers: Timers, log: Log, acknowledgeAfter: WideInt) {
        self.profiles = profiles
        self.store = store
        self.timers = timers
        self.log = log
        self.acknowledgeAfter = acknowledgeAfter
    }

    /// Takes back the money records an earlier run kept and the backend has not answered yet.
    func resume(_ records: [OutboxRecord]) {
        for record in records {
            guard let purchase = PurchaseRecord.kept(record.body) else { continue }
            kept[record.eventId] = purchase
            profiles.awaitBackend(purchase.transaction.transactionId)
            if purchase.finishedByCore && !purchase.isPending { watchStoreDeadline(purchase.transaction, type: purchase.productType) }
        }
    }

    /// `purchase` is about to be kept for the backend as record `eventId`: its grant stands
    /// until the backend answers (set first, so no answer can come before it).
    func willKeep(_ purchase: PurchaseRecord.Kept, eventId: String) {
        kept[eventId] = purchase
        profiles.awaitBackend(purchase.transaction.transactionId)
    }

    /// It was kept; when the core finishes it and the store completed it, its store deadline is watched.
    func wasKept(_ purchase: PurchaseRecord.Kept) {
        if purchase.finishedByCore && !purchase.isPending { watchStoreDeadline(purchase.transaction, type: purchase.productType) }
    }

    /// Keeping it failed after all: nothing stands for it.
    func notKept(eventId: String) {
        guard let purchase = kept.removeValue(forKey: eventId) else { return }
        profiles.backendAnswered(purchase.transaction.transactionId)
    }

    /// Asks the store to finish a transaction (the host's store; the test store has nothing to
    /// do): `consume` uses up a consumable, which only the backend's word may allow.
    func finish(_ transaction: StoreTransaction, consume: Bool) {
        let log = self.log
        _ = store.start(.finishTransaction(transaction, consume: consume), origin: nil) { outcome in
            if case .done(let error?) = outcome { log(.warn, "the store could not finish a transaction: \(error.message)") }
        }
    }

    // MARK: - The backend's verdicts

    /// Whether a kept transaction still waits for the backend's verdict.
    func awaitsVerdict(_ transactionId: String) -> Bool {
        kept.values.contains { $0.transaction.transactionId == transactionId }
    }

    /// Hands the backend's verdict on `transactionId` to `reply` once it has been applied (the
    /// profile is then the backend's), or nil when none came within `milliseconds`: the record
    /// keeps going to the backend, and its verdict still applies when it comes.
    func awaitVerdict(_ transactionId: String, within milliseconds: WideInt, reply: @escaping (PurchaseVerdict?) -> Void) {
        let timer = timers.schedule(after: milliseconds) { [self] in
            self.verdictWaiters.removeValue(forKey: transactionId)?.reply(nil)
        }
        verdictWaiters[transactionId] = (timer, reply)
    }

    /// Drops every wait for a verdict, unanswered (the client is being freed).
    func cancelAll() { verdictWaiters.removeAll() }

    private func tellVerdict(_ transactionId: String, _ verdict: PurchaseVerdict) {
        guard let waiter = verdictWaiters.removeValue(forKey: transactionId) else { return }
        timers.cancel(waiter.timer)
        waiter.reply(verdict)
    }

    func delivered(_ record: OutboxRecord, response: HTTPResponse) {
        guard let kept = kept.removeValue(forKey: record.eventId) else { return }
        profiles.backendAnswered(kept.transaction.transactionId)
        if let snapshot = PurchaseAnswer.decode(response.body).profile {
            _ = profiles.applyBackend(snapshot, profileId: kept.profileId, trust: response.trust)
        }
        if kept.finishedByCore { finishAnswered(kept.transaction, consume: kept.productType == .consumable) }
        tellVerdict(kept.transaction.transactionId, .accepted)
    }

    func refused(_ record: OutboxRecord, response: HTTPResponse) {
        guard let kept = kept.removeValue(forKey: record.eventId) else { return }
        let transactionId = kept.transaction.transactionId
        profiles.backendAnswered(transactionId)
        let answer = PurchaseAnswer.decode(response.body)
        var refused: (code: String, message: String)?
        if case .refused(let code, let message)? = answer.outcome { refused = (code, message) }
        let code = refused?.code ?? "http_\(response.status)", message = refused?.message ?? "no reason given"
        log(.warn, "the backend refused transaction '\(transactionId)' (\(code)): \(message); the access it gave is revoked",
            details: [("transaction_id", .string(transactionId)), ("code", .string(code)),
                      ("status", .number(JSONNumber(response.status)))])
        if let snapshot = answer.profile {
            _ = profiles.applyBackend(snapshot, profileId: kept.profileId, trust: response.trust)
        } else {
            _ = profiles.revoke(transactionId: transactionId)
        }
        // The backend has judged it: the store need not deliver it again. A refused consumable
        // is not consumed: the backend did not vouch for it.
        if kept.finishedByCore { finishAnswered(kept.transaction, consume: false) }
        tellVerdict(transactionId, .refused(status: response.status, code: refused?.code, message: refused?.message))
    }

    // MARK: - Store deadlines

    /// Sets the timer for `transaction`'s store deadline (at once when it has passed).
    private func watchStoreDeadline(_ transaction: StoreTransaction, type: ProductType?) {
        let id = transaction.transactionId
        guard deadlines[id] == nil else { return }
        let delay = max(0, transaction.purchasedAt.clampedAdding(acknowledgeAfter).clampedSubtracting(profiles.accessNow()))
        var deadline = StoreDeadline(transaction: transaction, consumable: type == .consumable)
        deadline.timer = timers.schedule(after: delay) { [self] in self.acknowledgeDeadlinePassed(id) }
        deadlines[id] = deadline
    }

    /// The deadline came before the backend's answer: acknowledge, keep the record.
    private func acknowledgeDeadlinePassed(_ transactionId: String) {
        guard var deadline = deadlines[transactionId], !deadline.acknowledged else { return }
        deadline.timer = nil
        deadline.acknowledged = true
        deadlines[transactionId] = deadline
        log(.warn, "the backend has not answered transaction '\(transactionId)' in time: it is acknowledged to the store "
                + "so the store does not refund it; the backend still gets it",
            details: [("transaction_id", .string(transactionId))])
        finish(deadline.transaction, consume: false)
    }

    /// The backend answered: finish as usual, unless the deadline already acknowledged it;
    /// then only a consumable the backend vouched for is finished again, to consume it.
    private func finishAnswered(_ transaction: StoreTransaction, consume: Bool) {
        let deadline = deadlines.removeValue(forKey: transaction.transactionId)
        if let timer = deadline?.timer { timers.cancel(timer) }
        if deadline?.acknowledged == true && !consume { return }
        finish(transaction, consume: consume)
    }
}
