import PaywireWire

/// A short-lived signing key vouched for by a root key the app pins (`response_verification.
/// root_keys`), so the key that signs answers and documents can change without an app release
/// and the root's private key never needs to be on a server. The root signs `message`: the
/// UTF-8 text `paywire-signing-key-v1` LF root id LF key id LF public key (base64) LF expires-at
/// (ms since the epoch). The server sends it with every signed answer (`header`) as `text`:
/// `v1;ROOT_ID;KEY_ID;PUBLIC_KEY;EXPIRES_AT;SIGNATURE`, base64 for the key and the signature
/// (neither holds a `;`, nor does a key id). Made by `paywire-server --certify-signing-key`.
public struct SigningKeyCertificate: Equatable, Sendable {
    /// Answer: the certificate of the key that signed.
    public static let header = "x-paywire-signing-key"

    public let rootId: String
    public let keyId: String
    /// The signing key's raw 32-byte Ed25519 public key.
    public let publicKey: [UInt8]
    /// When the key stops being trusted (ms since the epoch).
    public let expiresAt: WideInt
    /// The root's Ed25519 signature of `message`.
    public let signature: [UInt8]

    public init(rootId: String, keyId: String, publicKey: [UInt8], expiresAt: WideInt, signature: [UInt8]) {
        self.rootId = rootId
        self.keyId = keyId
        self.publicKey = publicKey
        self.expiresAt = expiresAt
        self.signature = signature
    }

    /// The bytes the root signs.
    public static func message(rootId: String, keyId: String, publicKey: [UInt8], expiresAt: WideInt) -> [UInt8] {
        Array("paywire-signing-key-v1\n\(rootId)\n\(keyId)\n\(Base64.encode(publicKey))\n\(expiresAt)".utf8)
    }

    public var message: [UInt8] { SigningKeyCertificate.message(rootId: rootId, keyId: keyId, publicKey: publicKey, expiresAt: expiresAt) }

    /// The header form.
    public var text: String {
        "v1;\(rootId);\(keyId);\(Base64.encode(publicKey));\(expiresAt);\(Base64.encode(signature))"
    }

    /// Reads the header form; nil when it is not one (ids checked as key ids, a 32-byte key, a
    /// 64-byte signature).
    public init?(text: String) {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 6, parts[0] == "v1", ResponseSignature.isValidKeyId(parts[1]), ResponseSignature.isValidKeyId(parts[2]),
              let publicKey = Base64.decode(parts[3]), publicKey.count == 32, let expiresAt = WideInt(parts[4]), expiresAt >= 0,
              let signature = Base64.decode(parts[5]), signature.count == 64 else { return nil }
        self.init(rootId: parts[1], keyId: parts[2], publicKey: publicKey, expiresAt: expiresAt, signature: signature)
    }
}
