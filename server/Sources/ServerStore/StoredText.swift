import PaywireModel
import ServerDomain

/// The model's vocabularies as the store keeps them (their raw text), read back: text the
/// server did not write there is an error naming the column, never a guess.
package enum StoredText {
    /// The value `text` spells in `column`'s vocabulary.
    package static func value<Value: RawRepresentable>(_ text: String, column: String) throws(StoredTextProblem) -> Value
    where Value.RawValue == String {
        guard let value = Value(rawValue: text) else { throw StoredTextProblem(column: column, text: text) }
        return value
    }

    package static func productType(_ text: String) throws(StoredTextProblem) -> ProductType { try value(text, column: "product_type") }

    package static func environment(_ text: String) throws(StoredTextProblem) -> StoreEnvironment { try value(text, column: "environment") }

    package static func purchaseStatus(_ text: String) throws(StoredTextProblem) -> PurchaseStatus { try value(text, column: "status") }

    package static func notificationOutcome(_ text: String) throws(StoredTextProblem) -> NotificationOutcome { try value(text, column: "outcome") }

    package static func transferReason(_ text: String) throws(StoredTextProblem) -> TransferReason { try value(text, column: "reason") }

    package static func cancellationReason(_ text: String?) throws(StoredTextProblem) -> CancellationReason? {
        guard let text else { return nil }
        return try value(text, column: "cancellation_reason") as CancellationReason
    }
}

/// A stored value outside the model's vocabulary.
package struct StoredTextProblem: Error, CustomStringConvertible {
    package let column: String
    package let text: String
    package var description: String { "the store holds '\(text)' in \(column), which is none of the model's values" }
}
