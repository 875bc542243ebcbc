import PaywireModel
import ServerDomain

/// The model's vocabularies as the store keeps them (their raw text), read back: text the
/// server did not write there is an error naming the column, never a guess.
enum StoredText {
    /// The value `text` spells in `column`'s vocabulary.
    static func value<Value: RawRepresentable>(_ text: String, column: String) throws(StoredTextProblem) -> Value
    where Value.RawValue == String {
        guard let value = Value(rawValue: text) else { throw StoredTextProblem(column: column, text: text) }
        return value
    }

    static func productType(_ text: String) throws(StoredTextProblem) -> ProductType { try value(text, column: "product_type") }

    static func environment(_ text: String) throws(StoredTextProblem) -> StoreEnvironment { try value(text, column: "environment") }

    static func purchaseStatus(_ text: String) throws(StoredTextProblem) -> PurchaseStatus { try value(text, column: "status") }

    static func notificationOutcome(_ text: String) throws(StoredTextProblem) -> NotificationOutcome { try value(text, column: "outcome") }

    static func transferReason(_ text: String) throws(StoredTextProblem) -> TransferReason { try value(text, column: "reason") }

    static func cancellationReason(_ text: String?) throws(StoredTextProblem) -> CancellationReason? {
        guard let text else { return nil }
        return try value(text, column: "cancellation_reason") as CancellationReason
    }
}

/// A stored value outside the model's vocabulary.
struct StoredTextProblem: Error, CustomStringConvertible {
    let column: String
    let text: String
    var description: String { "the store holds '\(text)' in \(column), which is none of the model's values" }
}
