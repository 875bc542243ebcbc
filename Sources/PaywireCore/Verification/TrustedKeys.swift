import PaywireModel
import PaywireWire

/// Which public key a signature's key id stands for (`response_verification`): one the config
/// lists in `public_keys` or `root_keys`, or a short-lived signing key whose certificate
/// (`SigningKeyCertificate`, sent with the answer) a pinned root of `root_keys` signed and that
/// had not expired at the time it is judged at. Pure apart from the `SignatureVerifier` port.
struct TrustedKeys {
    /// Why no key was found (`details.reason`).
    enum Refusal: String, WireEnum, Error, Sendable {
        /// Not listed, and no certificate names it.
        case unknown_key
        /// Its certificate names no pinned root, or its root's signature does not hold.
        case untrusted_root
        /// Its certificate had expired.
        case expired_key
    }

    let config: VerificationConfig
    let signatures: SignatureVerifier

    /// The key to check a signature made by `id` with, judged at `time` (ms since the epoch).
    func key(_ id: String, certificate: SigningKeyCertificate?, at time: WideInt) -> Result<[UInt8], Refusal> {
        // A root may sign itself (a fallback bundle signed at build time, where the root is kept).
        if let key = config.key(id) ?? config.root(id) { return .success(key) }
        guard let certificate, certificate.keyId == id else { return .failure(.unknown_key) }
        guard let root = config.root(certificate.rootId),
              signatures.isValidEd25519(signature: certificate.signature, message: certificate.message, publicKey: root) else {
            return .failure(.untrusted_root)
        }
        guard time <= certificate.expiresAt else { return .failure(.expired_key) }
        return .success(certificate.publicKey)
    }

    /// The certificate an answer carries, if any; `malformed` when the header is there but is not one.
    static func certificate(of response: HTTPResponse) -> (certificate: SigningKeyCertificate?, malformed: Bool) {
        guard let text = response.header(SigningKeyCertificate.header) else { return (nil, false) }
        guard let certificate = SigningKeyCertificate(text: text) else { return (nil, true) }
        return (certificate, false)
    }
}
