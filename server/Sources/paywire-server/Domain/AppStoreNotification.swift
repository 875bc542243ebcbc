import Crypto
import Foundation
import PaywireWire
import SwiftASN1
import X509

/// Why a signed App Store body is refused (400): a contract code and a reason for people.
struct SignedProblem: Error, Sendable {
    let code: String
    let message: String
    init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// Checks App Store JWS (ES256, `x5c` chain in the header) against the roots of
/// `--app-store-root`: the chain must lead from the leaf to one of them under RFC 5280 at the
/// time of checking (now), and the leaf's P-256 key must have signed `header.payload`. Apple's own
/// certificate OIDs (1.2.840.113635.100.6.11.1 on the leaf) are not required: tests make
/// their own chains.
struct JWSVerifier: Sendable {
    let roots: [Certificate]

    /// Reads a PEM file (one or more certificates) or a DER file; no file, no roots.
    init(rootFile path: String?) throws {
        guard let path else {
            roots = []
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw SignedProblem("root", "cannot read \(path)") }
        let text = String(decoding: data, as: UTF8.self)
        if text.contains("-----BEGIN") {
            roots = try PEMDocument.parseMultiple(pemString: text).map { try Certificate(derEncoded: $0.derBytes) }
        } else {
            roots = [try Certificate(derEncoded: Array(data))]
        }
    }

    /// The payload of a JWS whose chain and signature check out.
    func verify(_ jws: String) async throws(SignedProblem) -> JSONValue {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
              let signatureBytes = Base64URL.decode(parts[2]) else {
            throw SignedProblem("malformed_jws", "not a JWS in compact form (three base64url parts)")
        }
        guard let header = try? JSONValue(parsing: Array(headerBytes)), header["alg"]?.asString == "ES256" else {
            throw SignedProblem("malformed_jws", "the JWS header must be a JSON object with alg ES256")
        }
        guard let chain = header["x5c"]?.asArray, !chain.isEmpty, chain.count <= 5 else {
            throw SignedProblem("malformed_jws", "the JWS header must carry an x5c chain (1 to 5 certificates)")
        }
        var certificates: [Certificate] = []
        for item in chain {
            guard let der = item.asString.flatMap({ Base64URL.decode($0, url: false) }),
                  let certificate = try? Certificate(derEncoded: Array(der)) else {
                throw SignedProblem("malformed_jws", "an x5c entry is not a base64 DER certificate")
            }
            certificates.append(certificate)
        }
        let leaf = try await trusted(certificates)
        guard let key = P256.Signing.PublicKey(leaf.publicKey),
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
              key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)) else {
            throw SignedProblem("invalid_signature", "the JWS signature is not the leaf certificate's ES256 signature")
        }
        guard let payload = try? JSONValue(parsing: Array(payloadBytes)), payload.isObject else {
            throw SignedProblem("invalid_payload", "the JWS payload is not a JSON object")
        }
        return payload
    }

    /// The leaf, when the chain leads to a root this server was given.
    private func trusted(_ certificates: [Certificate]) async throws(SignedProblem) -> Certificate {
        guard !roots.isEmpty else {
            throw SignedProblem("untrusted_certificate", "this server was started without --app-store-root: no chain can be trusted")
        }
        guard let leaf = certificates.first else { throw SignedProblem("malformed_jws", "empty x5c") }
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) { RFC5280Policy() }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(certificates.dropFirst()))
        guard case .validCertificate = result else {
            throw SignedProblem("untrusted_certificate", "the x5c chain does not lead to the --app-store-root certificate")
        }
        return leaf
    }
}

/// App Store Server Notifications v2: the decoded, verified payload in the App Store vocabulary.
enum AppStoreNotification {
    static func parse(_ body: [UInt8], verifier: JWSVerifier) async throws(SignedProblem) -> StoreNotification {
        let signed = try invalid("invalid_request") { () throws(RequestProblem) in try NotificationRequests.document(body).text("signedPayload") }
        let payload = try await verifier.verify(signed)
        let (members, data) = try invalid { () throws(RequestProblem) in
            let members = try Members(payload)
            guard let data = try members.member("data") else { throw RequestProblem("data is required") }
            return (members, data)
        }
        let transactionJWS = try invalid { () throws(RequestProblem) in try data.text("signedTransactionInfo") }
        let transaction = try await verifier.verify(transactionJWS)
        var renewal: JSONValue?
        if let renewalJWS = try invalid("invalid_payload", { () throws(RequestProblem) in try data.optionalText("signedRenewalInfo") }) {
            renewal = try await verifier.verify(renewalJWS)
        }
        return try invalid { () throws(RequestProblem) in
            let info = try Members(transaction, path: "signedTransactionInfo.")
            let renewalInfo = try renewal.map { value throws(RequestProblem) in try Members(value, path: "signedRenewalInfo.") }
            let event = try event(members, try members.text("notificationType"), info, renewalInfo)
            return StoreNotification(source: "app_store", notificationId: try members.text("notificationUUID"),
                                     originalTransactionId: try info.text("originalTransactionId"), event: event,
                                     text: String(decoding: payload.encoded, as: UTF8.self))
        }
    }

    /// A request problem of a verified payload as a 400 with `code`.
    private static func invalid<T>(_ code: String = "invalid_payload", _ read: () throws(RequestProblem) -> T) throws(SignedProblem) -> T {
        do {
            return try read()
        } catch {
            throw SignedProblem(code, error.message)
        }
    }

    /// The lifecycle event of a verified payload, its transaction and its renewal info.
    private static func event(_ payload: Members, _ typeName: String, _ transaction: Members, _ renewal: Members?)
        throws(RequestProblem) -> LifecycleEvent {
        guard let at = try payload.millis("signedDate") else { throw RequestProblem("signedDate is required") }
        let kind = NotificationKind(rawValue: typeName) ?? .other
        var event = LifecycleEvent(kind: kind, storeType: typeName, subtype: try payload.optionalText("subtype"), at: at)
        event.transactionId = try transaction.optionalText("transactionId")
        event.vendorProductId = try transaction.optionalText("productId")
        event.expiresAt = try transaction.millis("expiresDate")
        event.refundedAt = try transaction.millis("revocationDate")
        if let renewal {
            event.gracePeriodExpiresAt = try renewal.millis("gracePeriodExpiresDate")
            event.willRenew = try renewal.int("autoRenewStatus").map { $0 == 1 }
        }
        return event
    }
}
