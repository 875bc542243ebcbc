import Crypto
import Hummingbird
import PaywireWire
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

    /// What an `authorization` header holds for a device route: an accepted app key, an app key
    /// that is not one of them, or none at all (no header, or another scheme's credential).
    enum Presented: Equatable {
        case accepted
        /// A key none of the digests matches, named by the first hex digits of its SHA-256 (the
        /// operator compares them with `--app-key-sha256`; the key itself is never echoed).
        case refused(digestPrefix: String)
        case missing
    }

    /// How many hex digits of a refused key's digest its answer names: enough to tell two keys
    /// apart, far too few to learn anything about the key.
    static let digestPrefixLength = 8

    /// What `header` presents (`Api-Key <key>`), the key compared with every digest alike.
    func presented(_ header: String?) -> Presented {
        guard let key = Self.credential(header, scheme: "Api-Key") else { return .missing }
        let given = Self.digest(of: key)
        var matched: UInt8 = 0
        for expected in digests { matched |= ConstantTime.same(given, expected) }
        return matched == 1 ? .accepted : .refused(digestPrefix: String(Hex.encode(given).prefix(Self.digestPrefixLength)))
    }

    /// Whether an `authorization` header carries `Api-Key <key>` with an accepted key.
    func accepts(_ header: String?) -> Bool { presented(header) == .accepted }

    /// The credential of an `authorization` header of `scheme` (`Api-Key`, `Bearer`), or nil.
    static func credential(_ header: String?, scheme: String) -> Substring? {
        guard let header, header.hasPrefix(scheme + " ") else { return nil }
        return header.dropFirst(scheme.count + 1)
    }
}
