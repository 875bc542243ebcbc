import Foundation
import PaywireWire
import ServerDomain

/// One operator key: its id (what logs and audit records name, never the key), its digest and
/// its scopes.
struct OperatorKey: Sendable {
    let id: String
    let digest: [UInt8]
    let scopes: Set<OperatorScope>

    /// `ID:SHA256HEX:SCOPE[,SCOPE...]` (`--operator-key-sha256`), or nil with why not.
    static func parse(_ text: String) -> Result<OperatorKey, OperatorKeyProblem> {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        // A scope holds a colon itself (results:read): the id and the digest come first.
        guard parts.count == 3, !parts[0].isEmpty, parts[0].utf8.count <= 64 else {
            return .failure(OperatorKeyProblem("an operator key is ID:SHA256HEX:SCOPE[,SCOPE...]"))
        }
        guard let digest = Hex.decode(parts[1], count: 32) else {
            return .failure(OperatorKeyProblem("operator key '\(parts[0])': the digest must be 64 hex digits (sha256sum of the key)"))
        }
        var scopes = Set<OperatorScope>()
        for name in parts[2].split(separator: ",") {
            guard let scope = OperatorScope(rawValue: String(name).trimmingCharacters(in: .whitespaces)) else {
                let known = OperatorScope.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(OperatorKeyProblem("operator key '\(parts[0])': '\(name)' is not a scope (\(known))"))
            }
            scopes.insert(scope)
        }
        guard !scopes.isEmpty else { return .failure(OperatorKeyProblem("operator key '\(parts[0])' names no scope")) }
        return .success(OperatorKey(id: parts[0], digest: digest, scopes: scopes))
    }
}

/// Why an operator key's configuration was refused (the server does not start).
struct OperatorKeyProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The operator keys a server accepts (`authorization: Bearer <key>`), as digests; several at
/// once while one is rotated out. A request's key is hashed and compared with every digest, in
/// time that depends on neither where they differ nor which one matched; the key is never kept,
/// echoed or logged.
struct OperatorKeys: Sendable {
    let keys: [OperatorKey]

    /// The key a header carries, or nil when it carries none this server accepts.
    func key(_ header: String?) -> OperatorKey? {
        guard let given = APIKeys.credential(header, scheme: "Bearer") else { return nil }
        return key(secret: given)
    }

    /// The key whose secret this is (the dashboard's sign-in form), or nil.
    func key(secret given: some StringProtocol) -> OperatorKey? {
        let digest = APIKeys.digest(of: given)
        var found: OperatorKey?
        for key in keys where ConstantTime.same(digest, key.digest) == 1 { found = key }
        return found
    }

    /// The key with this id (a session names its key by id), or nil once it is rotated out.
    func key(id: String) -> OperatorKey? { keys.first { $0.id == id } }
}
