import PaywireModel
import PaywireWire

/// `response_verification {mode, public_keys: [{id, key}]}`: whether the backend's answers that
/// carry access must be signed, and by which keys. Checked with the config.
public struct VerificationConfig: Sendable {
    public enum Mode: String, CaseIterable, Sendable {
        /// Nothing asked, nothing checked: every grant's `verification` is `not_requested`.
        case disabled
        /// A failed check is reported on the grants and in a log event; the answer still applies.
        case informational
        /// A failed check refuses the answer like a network failure.
        case enforced
    }

    static let knownKeys: Set<String> = ["mode", "public_keys"]
    static let maxKeys = 16

    public let mode: Mode
    /// Public key by id, in the config's order.
    let publicKeys: [(id: String, key: [UInt8])]
    /// Keys this version does not know (warnings).
    let unknownKeys: [String]

    /// Verification disabled.
    init() {
        mode = .disabled
        publicKeys = []
        unknownKeys = []
    }

    init(_ fields: Fields) throws(WireError) {
        var unknown = try fields.unknownKeysRefusingNearMisses(VerificationConfig.knownKeys, kind: "config")
        guard let mode = try fields.optionalEnum("mode", Mode.self) else { throw WireError.wrongParam(fields.fieldPath("mode"), "is required") }
        self.mode = mode
        var keys: [(id: String, key: [UInt8])] = []
        if fields.optional("public_keys") != nil {
            let list = try fields.objects("public_keys")
            guard list.count <= VerificationConfig.maxKeys else {
                throw WireError.wrongParam(fields.fieldPath("public_keys"), "takes at most \(VerificationConfig.maxKeys) keys")
            }
            for entry in list {
                unknown += try entry.unknownKeysRefusingNearMisses(["id", "key"], kind: "config")
                let id = try entry.string("id")
                guard ResponseSignature.isValidKeyId(id) else {
                    throw WireError.wrongParam(entry.fieldPath("id"), "must be 1 to \(ResponseSignature.maxKeyIdLength) of A-Z a-z 0-9 . _ -")
                }
                guard !keys.contains(where: { $0.id == id }) else {
                    throw WireError.wrongParam(entry.fieldPath("id"), "'\(id)' is listed twice")
                }
                guard let key = Base64.decode(try entry.string("key")), key.count == 32 else {
                    throw WireError.wrongParam(entry.fieldPath("key"), "expected a 32-byte Ed25519 public key in base64")
                }
                keys.append((id, key))
            }
        }
        if mode != .disabled && keys.isEmpty {
            throw WireError.wrongParam(fields.fieldPath("public_keys"), "needs at least one key unless mode is disabled")
        }
        publicKeys = keys
        unknownKeys = unknown
    }

    /// The key listed under `id`, if any.
    func key(_ id: String) -> [UInt8]? { publicKeys.first { $0.id == id }?.key }
}
