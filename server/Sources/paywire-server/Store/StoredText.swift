import PaywireModel

/// The model's vocabularies as the store keeps them (their raw text), read back: text the
/// server did not write there is an error naming the column, never a guess.
enum StoredText {
    static func productType(_ text: String) throws(StoredTextProblem) -> ProductType {
        guard let type = ProductType(rawValue: text) else { throw StoredTextProblem(column: "product_type", text: text) }
        return type
    }

    static func environment(_ text: String) throws(StoredTextProblem) -> StoreEnvironment {
        guard let environment = StoreEnvironment(rawValue: text) else { throw StoredTextProblem(column: "environment", text: text) }
        return environment
    }

    static func purchaseStatus(_ text: String) throws(StoredTextProblem) -> PurchaseStatus {
        guard let status = PurchaseStatus(rawValue: text) else { throw StoredTextProblem(column: "status", text: text) }
        return status
    }

    static func notificationOutcome(_ text: String) throws(StoredTextProblem) -> NotificationOutcome {
        guard let outcome = NotificationOutcome(rawValue: text) else { throw StoredTextProblem(column: "outcome", text: text) }
        return outcome
    }

    static func transferReason(_ text: String) throws(StoredTextProblem) -> TransferReason {
        guard let reason = TransferReason(rawValue: text) else { throw StoredTextProblem(column: "reason", text: text) }
        return reason
    }

    static func cancellationReason(_ text: String?) throws(StoredTextProblem) -> CancellationReason? {
        guard let text else { return nil }
        guard let reason = CancellationReason(rawValue: text) else { throw StoredTextProblem(column: "cancellation_reason", text: text) }
        return reason
    }
}

/// A stored value outside the model's vocabulary.
struct StoredTextProblem: Error, CustomStringConvertible {
    let column: String
    let text: String
    var description: String { "the store holds '\(text)' in \(column), which is none of the model's values" }
}
