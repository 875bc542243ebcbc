import PaywireModel

/// Why a transaction was refused (`422`): one of the contract's codes (`RefusalCode`, the
/// model's) and a reason for people.
struct Refusal: Error, Sendable {
    typealias Code = RefusalCode

    let code: Code
    let message: String
}
