import PaywireModel
import PaywireWire

/// A document's signature as it came (`DocumentSignature`): kept beside a cached placement, or
/// given beside a bundle file (`fallback.signature`), so the copy can be checked again.
struct SignedDocument: Equatable, Sendable {
    let keyId: String
    let signature: [UInt8]

    /// `{key_id, signature}` (`#/$defs/document_signature`), the form config and cache share.
    var json: JSONValue {
        .object(JSONObject([("key_id", .string(keyId)), ("signature", .string(Base64.encode(signature)))]))
    }

    /// Reads `{key_id, signature}`; nil when a part is missing or malformed.
    init?(json value: JSONValue?) {
        guard case .object(let fields)? = value, case .string(let keyId)? = fields["key_id"],
              case .string(let text)? = fields["signature"], let signature = Base64.decode(text) else { return nil }
        self.init(keyId: keyId, signature: signature)
    }

    init(keyId: String, signature: [UInt8]) {
        self.keyId = keyId
        self.signature = signature
    }
}

/// The device's side of the operator's signature on documents (`DocumentSignature`):
/// placements and onboardings as the backend answers them and as the cache keeps them, and the
/// fallback bundle. Pure apart from the `SignatureVerifier` port. Judged in the mode of
/// `response_verification`, as answers that carry access are: informational serves what fails,
/// marked `verification: failed`; enforced never serves it.
final class DocumentVerifier {
    /// Why a check failed (`details.reason` of the log event or error).
    enum Failure: String, Error, Sendable {
        case missing, malformed, unknown_key, invalid
    }

    let mode: VerificationConfig.Mode
    private let config: VerificationConfig
    private let signatures: SignatureVerifier

    init(config: VerificationConfig, signatures: SignatureVerifier) {
        mode = config.mode
        self.config = config
        self.signatures = signatures
    }

    /// The header naming the keys the app trusts: the server signs with one of them.
    var requestHeaders: [(name: String, value: String)] {
        [(ResponseSignature.keyIdsHeader, config.publicKeys.map(\.id).joined(separator: ","))]
    }

    /// The signature an answer carries in its headers, or why there is none to check.
    static func signature(of response: HTTPResponse) -> Result<SignedDocument, Failure> {
        guard let text = response.header(DocumentSignature.signatureHeader), let keyId = response.header(DocumentSignature.keyIdHeader) else {
            return .failure(.missing)
        }
        guard let signature = Base64.decode(text), signature.count == 64 else { return .failure(.malformed) }
        return .success(SignedDocument(keyId: keyId, signature: signature))
    }

    /// Whether `signed` is a trusted key's signature of `document` as `kind`/`id` at `revision`;
    /// nil when it holds.
    func check(_ signed: SignedDocument?, kind: String, id: String, revision: String, document: [UInt8]) -> Failure? {
        guard let signed else { return .missing }
        guard DocumentSignature.isSingleLine(id), DocumentSignature.isSingleLine(revision) else { return .malformed }
        guard let key = config.key(signed.keyId) else { return .unknown_key }
        let message = DocumentSignature.message(kind: kind, id: id, revision: revision, document: document)
        guard signatures.isValidEd25519(signature: signed.signature, message: message, publicKey: key) else { return .invalid }
        return nil
    }

    /// A fallback bundle's bytes judged against the signature given with them: `verified`, or
    /// `failed` (informational: a warn log event says why). Enforced refuses a failing one with
    /// `response_verification_failed`.
    func judgeBundle(_ bytes: [UInt8], signature: SignedDocument?, log: Log) throws(WireError) -> Verification {
        guard let failure = check(signature, kind: DocumentSignature.bundleKind, id: "", revision: "", document: bytes) else {
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
