import PaywireModel
import PaywireWire

/// Checks Ed25519 signatures for `response_verification`: a port, so the core holds no
/// cryptography of its own. The boundary's adapter is the system's libcrypto, loaded when a
/// client first asks for verification (`Libcrypto`); unit tests may script one.
public protocol SignatureVerifier: AnyObject, Sendable {
    /// Whether `signature` (64 bytes) is `publicKey`'s (32 bytes) Ed25519 signature of `message`.
    func isValidEd25519(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool
}
