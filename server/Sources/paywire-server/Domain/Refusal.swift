import PaywireAPI

/// Why a transaction was refused (`422`): one of the contract's codes and a reason for people.
struct Refusal: Error, Sendable {
    /// The spec's refusal codes.
    typealias Code = Components.Schemas.PurchaseRefused._ErrorPayload.CodePayload

    let code: Code
    let message: String
}
