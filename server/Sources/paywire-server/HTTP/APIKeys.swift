import Crypto
import Hummingbird
import ServerDomain

/// The app keys a server accepts (`authorization: Api-Key <key>`), held only as SHA-256
/// digests (a key in clear is hashed when the configuration is read and never kept). A
/// request's key is hashed and compared with every digest in time that depends on neither where
/// they differ nor which one matched. An app key is public (it ships in every copy of the app):
/// it opens the device routes only.
struct APIKeys: Sendable {
    let digests: [[UInt8]]

    var isRequired: Bool { !digests.isEmpty }

    static func digest(of key: some StringProtocol) -> [UInt8] { Array(SHA256.hash(data: Array(key.utf8))) }

    /// Whether an `authorization` header carries `Api-Key <key>` with an accepted key.
    func accepts(_ header: String?) -> Bool {
        guard let key = Self.credential(header, scheme: "Api-Key") else { return false }
        let given = Self.digest(of: key)
        var matched: UInt8 = 0
        for expected in digests { matched |= Self.same(given, expected) }
        return matched == 1
    }

    /// The credential of an `authorization` header of `scheme` (`Api-Key`, `Bearer`), or nil.
    static func credential(_ header: String?, scheme: String) -> Substring? {
        guard let header, header.hasPrefix(scheme + " ") else { return nil }
        return header.dropFirst(scheme.count + 1)
    }

    /// 1 when equal, else 0 (`ConstantTime.same`, the domain's rule).
    static func same(_ a: [UInt8], _ b: [UInt8]) -> UInt8 { ConstantTime.same(a, b) }
}
