import PaywireModel
import PaywireWire

/// A transaction kept for the backend, watched against the store's own deadline.
struct StoreDeadline: Sendable {
    let transaction: StoreTransaction
    let consumable: Bool
    var timer: UInt64?
    /// The store was told it is done (`consume: false`) before the backend answered.
    var acknowledged = false
}

/// Store deadlines do not wait on the backend. Google Play refunds a purchase not acknowledged
/// within three days, and a transaction is finished only once the backend has it; so a
/// purchase still unanswered `store.acknowledge_after_ms` after it was made is acknowledged
/// (`store.finish_transaction` with `consume: false`) while its record keeps going to the
/// backend. A consumable is consumed only on the backend's word, when it comes.
extension Purchases {
    /// Sets the timer for `transaction`'s store deadline (at once when it has passed).
    func watchStoreDeadline(_ transaction: StoreTransaction, type: ProductType?) {
        let id = transaction.transactionId
        guard storeDeadlines[id] == nil else { return }
        let delay = max(0, transaction.purchasedAt + acknowledgeAfter - profiles.accessNow())
        var deadline = StoreDeadline(transaction: transaction, consumable: type == .consumable)
        deadline.timer = timers.schedule(after: delay) { [weak self] in self?.acknowledgeDeadlinePassed(id) }
        storeDeadlines[id] = deadline
    }

    /// The deadline came before the backend's answer: acknowledge, keep the record.
    private func acknowledgeDeadlinePassed(_ transactionId: String) {
        guard var deadline = storeDeadlines[transactionId], !deadline.acknowledged else { return }
        deadline.timer = nil
        deadline.acknowledged = true
        storeDeadlines[transactionId] = deadline
        log(.warn, "the backend has not answered transaction '\(transactionId)' in time: it is acknowledged to the store "
                + "so the store does not refund it; the backend still gets it",
            details: [("transaction_id", .string(transactionId))])
        finish(deadline.transaction, consume: false)
    }

    /// The backend answered: finish as usual, unless the deadline already acknowledged it;
    /// then only a consumable the backend vouched for is finished again, to consume it.
    func finishAnswered(_ transaction: StoreTransaction, consume: Bool) {
        let deadline = storeDeadlines.removeValue(forKey: transaction.transactionId)
        if let timer = deadline?.timer { timers.cancel(timer) }
        if deadline?.acknowledged == true && !consume { return }
        finish(transaction, consume: consume)
    }
}
