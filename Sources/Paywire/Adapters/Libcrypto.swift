import CCrypto
import PaywireCore
import PaywireModel
import PaywireWire

/// Ed25519 signature checks (`response_verification`) by the system's libcrypto, loaded on demand
/// (`Sources/CCrypto`): a well-kept implementation, and no cryptography of the library's own.
final class Libcrypto: SignatureVerifier {
    /// The checker, once libcrypto is loaded; when it cannot be (missing, too old) the config is
    /// refused with `wrong_param` on `response_verification.mode`, naming why, so the host can
    /// install it or turn verification off.
    static func load() throws(WireError) -> Libcrypto {
        if let failure = pw_crypto_load() {
            let reason = String(cString: failure)
            var details = JSONObject()
            details.set("field", .string("response_verification.mode"))
            details.set("underlying_error", .string(reason))
            throw WireError(.wrongParam, "response_verification needs the system's libcrypto (OpenSSL 1.1.1 or later): \(reason); "
                + "install it (Debian: libssl3) or set mode disabled", details: details)
        }
        return Libcrypto()
    }

    func isValidEd25519(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, publicKey.count == 32 else { return false }
        return publicKey.withUnsafeBufferPointer { key in
            signature.withUnsafeBufferPointer { signature in
                message.withUnsafeBufferPointer { message in
                    guard let key = key.baseAddress, let signature = signature.baseAddress, let bytes = message.baseAddress else { return false }
                    return pw_ed25519_verify(key, signature, bytes, message.count) == 1
                }
            }
        }
    }
}
