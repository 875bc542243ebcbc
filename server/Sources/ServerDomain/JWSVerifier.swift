import Crypto
import Foundation
import PaywireWire
import SwiftASN1
import X509

/// Why a signed App Store body is refused (400): a contract code and a reason for people.
package struct SignedProblem: Error, Sendable {
    package let code: String
    package let message: String
    package init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Whether the proof itself failed (the JWS does not parse, its chain is not trusted, its
    /// signature does not hold): who sent it is unknown, so the answer is 401, not 400.
    package var isUnproven: Bool { ["malformed_jws", "untrusted_certificate", "invalid_signature"].contains(code) }
}

/// Checks App Store JWS (ES256, `x5c` chain in the header) against the roots of
/// `--app-store-root`: the chain must lead from the leaf to one of them under RFC 5280 at the
/// time of checking (now), it must carry Apple's marker extensions (`AppleMarkerPolicy`) unless
/// the server was told to trust unmarked chains (roots a test or a developer made), and the
/// leaf's P-256 key must have signed `header.payload`. What the payload says (bundle id,
/// environment) is `AppStoreSigned`'s to check.
package struct JWSVerifier: Sendable {
    package let roots: [Certificate]
    /// Apple's policy: the leaf and the intermediate carry Apple's marker extensions and the
    /// chain is exactly leaf, intermediate, root.
    package let requireMarkers: Bool

    package init(roots: [Certificate], requireMarkers: Bool = true) {
        self.roots = roots
        self.requireMarkers = requireMarkers
    }

    /// The certificates of a root file's bytes: PEM (one or more certificates) or DER. Reading
    /// the file is the caller's (`init(rootFile:)`).
    package static func roots(parsing data: [UInt8]) throws -> [Certificate] {
        let text = String(decoding: data, as: UTF8.self)
        if text.contains("-----BEGIN") {
            return try PEMDocument.parseMultiple(pemString: text).map { try Certificate(derEncoded: $0.derBytes) }
        }
        return [try Certificate(derEncoded: data)]
    }

    /// The payload of a JWS whose chain and signature check out.
    package func verify(_ jws: String) async throws(SignedProblem) -> JSONValue {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64.decodeURL(parts[0]), let payloadBytes = Base64.decodeURL(parts[1]),
              let signatureBytes = Base64.decodeURL(parts[2]) else {
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
            guard let der = item.asString.flatMap({ Base64.decode($0) }),
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

    /// The leaf, when the chain leads to a root this server was given (and, by default, carries
    /// Apple's markers).
    private func trusted(_ certificates: [Certificate]) async throws(SignedProblem) -> Certificate {
        guard !roots.isEmpty else {
            throw SignedProblem("untrusted_certificate", "this server was started without --app-store-root: no chain can be trusted")
        }
        guard let leaf = certificates.first else { throw SignedProblem("malformed_jws", "empty x5c") }
        let markers = requireMarkers
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy()
            if markers { AppleMarkerPolicy() }
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(certificates.dropFirst()))
        switch result {
        case .validCertificate: return leaf
        case .couldNotValidate(let failures):
            let reasons = Set(failures.map { String(describing: $0.policyFailureReason) }.filter { $0.hasPrefix(AppleMarkerPolicy.prefix) })
            if let reason = reasons.sorted().first {
                throw SignedProblem("untrusted_certificate", "\(reason) (--app-store-unmarked-roots turns this check off for roots you made)")
            }
            throw SignedProblem("untrusted_certificate", "the x5c chain does not lead to the --app-store-root certificate")
        }
    }
}

/// Apple's certificate policy for App Store signed data, as Apple's App Store Server Library
/// applies it: the chain is exactly leaf, intermediate and root; the intermediate carries the
/// Apple WWDR marker extension (1.2.840.113635.100.6.2.1) and the leaf the App Store receipt
/// signing marker (1.2.840.113635.100.6.11.1). Apple's root signs many certificates whose keys
/// developers hold; only these may sign App Store data.
package struct AppleMarkerPolicy: VerifierPolicy {
    package static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    package static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    /// What every reason of this policy starts with, so the verifier can tell them apart.
    package static let prefix = "Apple's policy: "

    /// The markers are not critical extensions, so this policy claims none.
    package let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    package func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        let certificates = Array(chain)
        guard certificates.count == 3 else {
            return .failsToMeetPolicy(reason: "\(Self.prefix)the chain must be leaf, intermediate and root (it has \(certificates.count) certificates)")
        }
        guard certificates[1].extensions.contains(where: { $0.oid == Self.intermediateMarker }) else {
            return .failsToMeetPolicy(reason: "\(Self.prefix)the intermediate lacks Apple's marker extension 1.2.840.113635.100.6.2.1")
        }
        guard certificates[0].extensions.contains(where: { $0.oid == Self.leafMarker }) else {
            return .failsToMeetPolicy(reason: "\(Self.prefix)the leaf lacks Apple's marker extension 1.2.840.113635.100.6.11.1")
        }
        return .meetsPolicy
    }
}
