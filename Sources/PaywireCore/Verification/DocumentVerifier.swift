import PaywireModel
import PaywireWire

/// A document's signature as it came (`DocumentSignature`): kept beside a cached placement, or
/// given beside a bundle file (`fallback.signature`), so the copy can be checked again.
struct SignedDocument: Equatable, Sendable {
    let keyId: String
    let signature: [UInt8]
    /// The signing key's certificate, when a pinned root vouched for it.
    var certificate: SigningKeyCertificate? = nil

    /// `{key_id, signature, certificate?}` (`#/$defs/document_signature`), the form config and cache share.
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("key_id", .string(keyId)), ("signature", .string(Base64.encode(signature)))]
        if let certificate { members.append(("certificate", .string(certificate.text))) }
        return .object(JSONObject(members))
    }

    /// Reads `{key_id, signature, certificate?}`; nil when a part is missing or malformed.
    init?(json value: JSONValue?) {
        guard case .object(let fields)? = value, case .string(let keyId)? = fields["key_id"],
              case .string(let text)? = fields["signature"], let signature = Base64.decode(text) else { return nil }
        self.init(keyId: keyId, signature: signature)
        if let given = fields["certificate"] {
            guard case .string(let text) = given, let certificate = SigningKeyCertificate(text: text) else { return nil }
            self.certificate = certificate
        }
    }

    init(keyId: String, signature: [UInt8], certificate: SigningKeyCertificate? = nil) {
        self.keyId = keyId
        self.signature = signature
        self.certificate = certificate
    }
}

/// The device's side of the operator's signature on documents (`DocumentSignature`):
/// placements and onboardings as the backend answers them and as the cache keeps them, and the
/// fallback bundle. Pure apart from the `SignatureVerifier` port. Judged in the mode of
/// `response_verification`, as answers that carry access are: informational serves what fails,
/// marked `verification: failed`; enforced never serves it.
final class DocumentVerifier {
    /// Why a check failed (`details.reason` of the log event or error).
    enum Failure: String, WireEnum, Error, Sendable {
        case missing, malformed, unknown_key, untrusted_root, expired_key, invalid
    }

    let mode: VerificationConfig.Mode
    private let config: VerificationConfig
    private let signatures: SignatureVerifier
    private let keys: TrustedKeys
    private let clock: Clock

    init(config: VerificationConfig, signatures: SignatureVerifier, clock: Clock) {
        mode = config.mode
        self.config = config
        self.signatures = signatures
        keys = TrustedKeys(config: config, signatures: signatures)
        self.clock = clock
    }

    /// Now, by this device's clock: when a signing key's expiry is judged for what arrives.
    var now: WideInt { clock.nowMilliseconds() }

    /// The header naming the keys the app trusts: the server signs with one of them.
    var requestHeaders: [(name: String, value: String)] {
        [(ResponseSignature.keyIdsHeader, config.trustedIds)]
    }

    /// The signature an answer carries in its headers, or why there is none to check.
    static func signature(of response: HTTPResponse) -> Result<SignedDocument, Failure> {
        guard let text = response.header(DocumentSignature.signatureHeader), let keyId = response.header(DocumentSignature.keyIdHeader) else {
            return .failure(.missing)
        }
        let certificate = TrustedKeys.certificate(of: response)
        guard let signature = Base64.decode(text), signature.count == 64, !certificate.malformed else { return .failure(.malformed) }
        return .success(SignedDocument(keyId: keyId, signature: signature, certificate: certificate.certificate))
    }

    /// Whether `signed` is a trusted key's signature of `document` as `kind`/`id` at `revision`,
    /// a certified signing key judged at `time`; nil when it holds.
    func check(_ signed: SignedDocument?, kind: String, id: String, revision: String, document: [UInt8], at time: WideInt) -> Failure? {
        guard let signed else { return .missing }
        guard DocumentSignature.isSingleLine(id), DocumentSignature.isSingleLine(revision) else { return .malformed }
        let key: [UInt8]
        switch keys.key(signed.keyId, certificate: signed.certificate, at: time) {
        case .success(let trusted): key = trusted
        case .failure(let refusal): return Failure(rawValue: refusal.rawValue) ?? .unknown_key
        }
        let message = DocumentSignature.message(kind: kind, id: id, revision: revision, document: document)
        guard signatures.isValidEd25519(signature: signed.signature, message: message, publicKey: key) else { return .invalid }
        return nil
    }

    /// A fallback bundle's bytes judged against the signature given with them: `verified`, or
    /// `failed` (informational: a warn log event says why). Enforced refuses a failing one with
    /// `response_verification_failed`.
    func judgeBundle(_ bytes: [UInt8], signature: SignedDocument?, log: Log) throws(WireError) -> Verification {
        guard let failure = check(signature, kind: DocumentSignature.bundleKind, id: "", revision: "", document: bytes, at: now) else {
            return .verified
        }
        let details: [(key: String, value: JSONValue)] = [("document", .string(DocumentSignature.bundleKind)),
                                                          ("reason", .string(failure.rawValue)), ("mode", .string(mode.rawValue))]
        let message = "the fallback bundle is not signed by a key response_verification lists (\(failure.rawValue))"
        guard mode != .enforced else {
            throw WireError(.responseVerificationFailed, message + ": it is refused", details: JSONObject(details))
        }
        log(.warn, message + ": it serves, marked verification failed", details: details)
        return .failed
    }
}
