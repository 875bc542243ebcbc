/// Why the Play Developer API gave no usable answer (no answer at all: `PlayDeveloperAPI`; an
/// answer the rules cannot read: `PlayPurchaseState`). The push is then answered 503, so
/// Pub/Sub retries it; never a token or a key in the message.
package struct PlayAPIProblem: Error, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
}
