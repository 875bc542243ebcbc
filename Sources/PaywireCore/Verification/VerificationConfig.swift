import PaywireModel
import PaywireWire

/// `response_verification {mode, public_keys: [{id, key}], root_keys: [{id, key}]}`: whether
/// the backend's answers that carry access, and the documents it serves, must be signed, and by
/// which keys: one `public_keys` lists, or a short-lived signing key a root of `root_keys`
/// vouched for (`SigningKeyCertificate`), so the signing key rotates without an app release.
/// Checked with the config.
public struct VerificationConfig: Sendable {
    public enum Mode: String, WireEnum, Sendable {
        /// Nothing asked, nothing checked: every grant's `verification` is `not_requested`.
        case disabled
        /// A failed check is reported on the grants and in a log event; the answer still applies.
        case informational
        /// A failed check refuses the answer like a network failure.
        case enforced
    }

    static let knownKeys: Set<String> = ["mode", "public_keys", "root_keys"]
    static let maxKeys = 16

    public let mode: Mode
    /// Public key by id, in the config's order.
    let publicKeys: [(id: String, key: [UInt8])]
    /// The pinned roots by id: they sign signing keys' certificates, not answers.
    let rootKeys: [(id: String, key: [UInt8])]
    /// Keys this version does not know (warnings).
    let unknownKeys: [String]

    /// Verification disabled.
    init() {
        mode = .disabled
        publicKeys = []
        rootKeys = []
        unknownKeys = []
    }

    init(_ fields: Fields) throws(WireError) {
        var unknown = try fields.unknownKeysRefusingNearMisses(VerificationConfig.knownKeys, kind: "config")
        guard let mode = try fields.optionalEnum("mode", Mode.self) else { throw WireError.wrongParam(fields.fieldPath("mode"), "is required") }
        self.mode = mode
        let keys = try VerificationConfig.keys(fields, "public_keys", unknown: &unknown)
        let roots = try VerificationConfig.keys(fields, "root_keys", unknown: &unknown)
        if mode != .disabled && keys.isEmpty && roots.isEmpty {
            throw WireError.wrongParam(fields.fieldPath("public_keys"), "needs at least one key (or root_keys) unless mode is disabled")
        }
        if let shared = roots.first(where: { root in keys.contains { $0.id == root.id } }) {
            throw WireError.wrongParam(fields.fieldPath("root_keys"), "'\(shared.id)' is listed in public_keys too")
        }
        publicKeys = keys
        rootKeys = roots
        unknownKeys = unknown
    }

    /// A list of `{id, key}`: ids as key ids, each once, keys 32-byte Ed25519 public keys.
    private static func keys(_ fields: Fields, _ name: String, unknown: inout [String]) throws(WireError) -> [(id: String, key: [UInt8])] {
        guard fields.optional(name) != nil else { return [] }
        let list = try fields.objects(name)
        guard list.count <= VerificationConfig.maxKeys else {
            throw WireError.wrongParam(fields.fieldPath(name), "takes at most \(VerificationConfig.maxKeys) keys")
        }
        var keys: [(id: String, key: [UInt8])] = []
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
        return keys
    }

    /// The key listed under `id`, if any.
    func key(_ id: String) -> [UInt8]? { publicKeys.first { $0.id == id }?.key }

    /// The pinned root listed under `id`, if any.
    func root(_ id: String) -> [UInt8]? { rootKeys.first { $0.id == id }?.key }

    /// What a request sends in `x-paywire-key-ids`: the keys it trusts, then its roots (a server
    /// signs with a key one of them names or vouched for).
    var trustedIds: String { (publicKeys.map { $0.id } + rootKeys.map { $0.id }).joined(separator: ",") }
}
