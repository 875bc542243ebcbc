import Crypto
import Foundation
import PaywireModel
import PaywireWire

/// Signs promotional and win-back offers the way the App Store expects a developer's server
/// to: ECDSA P-256 with SHA-256 (swift-crypto), DER, base64, over
/// `bundle_id ⁣ key_id ⁣ product_id ⁣ offer_id ⁣ application_username ⁣ nonce ⁣ timestamp`
/// joined by U+2063 (INVISIBLE SEPARATOR), the username and nonce lowercased. The key is the
/// App Store Connect offer key (`--offer-key`, a PKCS#8 PEM), or with `--dev` a test key made
/// when the server starts (its public half: `GET /_dev/offers/key`), so tests verify real
/// signatures without any secret in the repository.
package struct OfferSigner: Sendable {
    package static let separator = "\u{2063}"
    package let bundleId: String
    package let keyId: String
    /// The private key's raw bytes (a P256 key is made per use: keep the struct Sendable).
    private let keyBytes: Data

    /// With a key made now (development).
    package init(bundleId: String, keyId: String) {
        self.bundleId = bundleId
        self.keyId = keyId
        keyBytes = P256.Signing.PrivateKey().rawRepresentation
    }

    /// With the key of a PEM file (App Store Connect's `.p8`).
    package init(bundleId: String, keyId: String, pem: String) throws {
        self.bundleId = bundleId
        self.keyId = keyId
        keyBytes = try P256.Signing.PrivateKey(pemRepresentation: pem).rawRepresentation
    }

    /// The text Apple's promotional-offer signature covers.
    package func payload(productId: String, offerId: String, applicationUsername: String, nonce: String, timestamp: Int) -> String {
        [bundleId, keyId, productId, offerId, applicationUsername.lowercased(), nonce.lowercased(), String(timestamp)]
            .joined(separator: Self.separator)
    }

    /// `{key_id, nonce, timestamp, signature}` (`OfferSignature`) for one purchase, with a nonce
    /// never used before.
    package func sign(productId: String, offerId: String, applicationUsername: String, nonce: String, now: Int) throws -> [UInt8] {
        let text = payload(productId: productId, offerId: offerId, applicationUsername: applicationUsername, nonce: nonce, timestamp: now)
        let signature = try P256.Signing.PrivateKey(rawRepresentation: keyBytes).signature(for: Data(text.utf8))
        return OfferSignature(keyId: keyId, nonce: nonce, timestamp: now, signature: Base64.encode(Array(signature.derRepresentation))).encode()
    }

    /// The public key as PEM, for `/_dev/offers/key`.
    package var publicKeyPEM: String {
        (try? P256.Signing.PrivateKey(rawRepresentation: keyBytes).publicKey.pemRepresentation) ?? ""
    }
}
