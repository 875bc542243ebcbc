import PaywireModel

/// Why a transaction was refused (`422`): one of the contract's codes (`RefusalCode`, the
/// model's) and a reason for people.
package struct Refusal: Error, Sendable {
    package typealias Code = RefusalCode

    package let code: Code
    package let message: String

    package init(code: Code, message: String) {
        self.code = code
        self.message = message
    }
}

extension Refusal: Equatable {
    package static func == (lhs: Refusal, rhs: Refusal) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }
}
