import Crypto
import Foundation
import PaywireModel
import PaywireWire
import SwiftASN1

/// Signs the answers that carry access (`ResponseSignature`: Ed25519 over the request's nonce,
/// the answer's time, status, route, ETag and exact body) with the operator's response signing
/// keys (`--response-signing-key`, PEM PKCS#8, in the order given). The first key signs, unless
/// the request names the keys its app trusts (`x-paywire-key-ids`) and the first is not among
/// them: then the first of this server's keys it names does, so apps that know only the old key
/// keep working while a key is rotated. Private keys never leave this type: no log, no error
/// names more than a key's id and public half.
package struct ResponseSigner: Sendable {
    package struct Key: Sendable {
        /// The first 16 hex digits of the SHA-256 of the public key: what apps list it under.
        package let id: String
        /// The raw 32-byte public key, base64: what apps put in `response_verification.public_keys`.
        package let publicKey: String
        /// The private key's raw bytes (the key is made per use: keep the struct Sendable).
        package let seed: [UInt8]
        /// A pinned root's certificate of this key (`--signing-key-certificate`), sent with
        /// every answer it signs, so apps that pin only the root trust it.
        package var certificate: SigningKeyCertificate? = nil
    }

    /// A key file the server cannot sign with; the message never holds key material.
    package struct Problem: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    package private(set) var keys: [Key]

    /// Reads each PEM; at least one. A file that is not an Ed25519 PKCS#8 private key stops the start.
    package init(pems: [(path: String, text: String)]) throws(Problem) {
        var keys: [Key] = []
        for (path, text) in pems {
            let key = try ResponseSigner.privateKey(pem: text, path: path)
            let raw = key.publicKey.rawRepresentation
            let digest = SHA256.hash(data: raw)
            let id = Hex.encode(digest.prefix(8))
            guard !keys.contains(where: { $0.id == id }) else { throw Problem(description: "\(path): the same key is given twice") }
            keys.append(Key(id: id, publicKey: Base64.encode(Array(raw)), seed: Array(key.rawRepresentation)))
        }
        guard !keys.isEmpty else { throw Problem(description: "no response signing key") }
        self.keys = keys
    }

    /// The key that signs for a request naming `trusted` (its `x-paywire-key-ids`, nil when
    /// absent): the first the request names, or whose certificate's root it names.
    package func key(trusting trusted: String?) -> Key {
        guard let trusted else { return keys[0] }
        let named = Set(trusted.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
        return keys.first { named.contains($0.id) || $0.certificate.map { named.contains($0.rootId) } == true } ?? keys[0]
    }

    /// Gives each certificate to the key it certifies (same id, same public key); a certificate
    /// of no key given stops the start.
    package mutating func attach(_ certificates: [(path: String, certificate: SigningKeyCertificate)]) throws(Problem) {
        for (path, certificate) in certificates {
            guard let index = keys.firstIndex(where: { $0.id == certificate.keyId && (Base64.decode($0.publicKey) ?? []) == certificate.publicKey }) else {
                throw Problem(description: "\(path) certifies key \(certificate.keyId), which no --response-signing-key is")
            }
            keys[index].certificate = certificate
        }
    }

    /// This signer's first key, as a root, certifies `key` until `expiresAt` (ms).
    package func certify(_ key: Key, expiresAt: Int) throws -> SigningKeyCertificate {
        let publicKey = Base64.decode(key.publicKey) ?? []
        let message = SigningKeyCertificate.message(rootId: keys[0].id, keyId: key.id, publicKey: publicKey, expiresAt: expiresAt)
        let signature = try Curve25519.Signing.PrivateKey(rawRepresentation: keys[0].seed).signature(for: message)
        return SigningKeyCertificate(rootId: keys[0].id, keyId: key.id, publicKey: publicKey, expiresAt: expiresAt, signature: Array(signature))
    }

    /// The certificate header of `key`, when a root certified it.
    private static func certificateHeader(_ key: Key) -> [(name: String, value: String)] {
        key.certificate.map { [(SigningKeyCertificate.header, $0.text)] } ?? []
    }

    /// The headers that sign an answer: its signature, the key's id and the time signed.
    package func headers(nonce: String, trusted: String?, signedAt: Int, status: Int, method: String, path: String, etag: String,
                 body: [UInt8]) throws -> [(name: String, value: String)] {
        let key = key(trusting: trusted)
        let message = ResponseSignature.message(nonce: nonce, signedAt: signedAt, status: status, method: method, path: path,
                                                etag: etag, body: body)
        let signature = try Curve25519.Signing.PrivateKey(rawRepresentation: key.seed).signature(for: message)
        return [(ResponseSignature.signatureHeader, Base64.encode(Array(signature))), (ResponseSignature.keyIdHeader, key.id),
                (ResponseSignature.signedAtHeader, String(signedAt))] + ResponseSigner.certificateHeader(key)
    }

    /// The headers that sign a document (`DocumentSignature`: a placement's or onboarding's
    /// answer, the same for every device, so no nonce and no time): its signature and key id.
    package func documentHeaders(trusted: String?, kind: String, id: String, revision: String,
                         body: [UInt8]) throws -> [(name: String, value: String)] {
        let (keyId, signature) = try documentSignature(trusted: trusted, kind: kind, id: id, revision: revision, body: body)
        return [(DocumentSignature.signatureHeader, signature), (DocumentSignature.keyIdHeader, keyId)]
            + ResponseSigner.certificateHeader(key(trusting: trusted))
    }

    /// A document's signature (base64) and the id of the key that made it.
    package func documentSignature(trusted: String?, kind: String, id: String, revision: String,
                           body: [UInt8]) throws -> (keyId: String, signature: String) {
        let key = key(trusting: trusted)
        let message = DocumentSignature.message(kind: kind, id: id, revision: revision, document: body)
        return (key.id, Base64.encode(Array(try Curve25519.Signing.PrivateKey(rawRepresentation: key.seed).signature(for: message))))
    }

    /// The Ed25519 key of a PKCS#8 PEM (`openssl genpkey -algorithm ed25519`): PrivateKeyInfo
    /// {version, {id-Ed25519 1.3.101.112}, OCTET STRING {OCTET STRING seed}} (RFC 8410).
    private static func privateKey(pem: String, path: String) throws(Problem) -> Curve25519.Signing.PrivateKey {
        let notEd25519 = Problem(description: "\(path) is not an Ed25519 private key in PEM (PKCS#8, -----BEGIN PRIVATE KEY-----); "
                                 + "make one with: openssl genpkey -algorithm ed25519 -out \(path)")
        do {
            let document = try PEMDocument(pemString: pem)
            guard document.discriminator == "PRIVATE KEY", case .constructed(let items) = try DER.parse(document.derBytes).content else {
                throw notEd25519
            }
            let nodes = Array(items)
            guard nodes.count >= 3, case .constructed(let algorithm) = nodes[1].content, let oid = Array(algorithm).first,
                  try ASN1ObjectIdentifier(derEncoded: oid) == [1, 3, 101, 112], case .primitive(let wrapped) = nodes[2].content else {
                throw notEd25519
            }
            return try Curve25519.Signing.PrivateKey(rawRepresentation: try ASN1OctetString(derEncoded: Array(wrapped)).bytes)
        } catch {
            throw notEd25519
        }
    }
}
