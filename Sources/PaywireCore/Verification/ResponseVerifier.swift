import PaywireModel
import PaywireWire

/// How the device judged a backend answer's signature: what the parts that apply the answer
/// mark its grants with, and, when verified, what is kept beside the profile to check again.
struct AnswerTrust: Sendable {
    let verification: Verification
    /// The answer as signed; nil unless verified.
    let signed: SignedAnswer?

    /// Verification disabled (or an answer no signature was asked for).
    static let notRequested = AnswerTrust(verification: .not_requested, signed: nil)
    static let failed = AnswerTrust(verification: .failed, signed: nil)
}

/// The device's side of `response_verification`: a fresh nonce for each request whose answer can
/// carry access, and the check of that answer's signature (`ResponseSignature`) against the
/// config's public keys, through the `SignatureVerifier` port. Pure apart from the port: the
/// random bits and the monotonic clock are handed in.
///
/// An answer fails when its signature is missing or malformed, names a key the config does not
/// list, does not match (a changed answer, or one signed for another request's nonce or path),
/// carries a profile other than the one the request was about (`other_profile`: a request
/// rewritten on the way to name a profile that paid gets a genuine answer about that profile),
/// or is too old: signed more than `tolerance` before the newest signature this device already
/// verified, counted forward on the monotonic clock since (the server cannot answer now with a
/// time earlier than one it already signed; the tolerance covers replicas' clocks).
final class ResponseVerifier {
    /// Why a check failed (`details.reason` of the log event).
    enum Failure: String, WireEnum, Error, Sendable {
        case missing, malformed, unknown_key, untrusted_root, expired_key, invalid, other_profile, too_old
    }

    static let tolerance = 5 * Milliseconds.minute
    static let nonceBytes = 16

    let mode: VerificationConfig.Mode
    private let config: VerificationConfig
    private let signatures: SignatureVerifier
    private let keys: TrustedKeys
    private let random: RandomSource
    private let clock: Clock
    /// The newest verified signing time, and the monotonic time it was heard at.
    private var newest: (signedAt: WideInt, monotonic: WideInt)?

    init(config: VerificationConfig, signatures: SignatureVerifier, random: RandomSource, clock: Clock) {
        mode = config.mode
        self.config = config
        self.signatures = signatures
        keys = TrustedKeys(config: config, signatures: signatures)
        self.random = random
        self.clock = clock
    }

    /// A fresh nonce and the request headers that carry it, with the ids of the trusted keys.
    func requestHeaders() -> (nonce: String, headers: [(name: String, value: String)]) {
        let nonce = Base64.encode(random.bytes(ResponseVerifier.nonceBytes))
        return (nonce, [(ResponseSignature.nonceHeader, nonce),
                        (ResponseSignature.keyIdsHeader, config.trustedIds)])
    }

    /// Checks `response` to the request `method path` sent with `nonce`; an answer that carries a
    /// profile must be about `about` when given (nil: the backend may name another, as an
    /// identity's answer names the customer's profile).
    func check(_ response: HTTPResponse, nonce: String, method: String, path: String, about: String? = nil) -> Result<SignedAnswer, Failure> {
        guard let text = response.header(ResponseSignature.signatureHeader), let keyId = response.header(ResponseSignature.keyIdHeader),
              let time = response.header(ResponseSignature.signedAtHeader) else { return .failure(.missing) }
        let certificate = TrustedKeys.certificate(of: response)
        guard let signature = Base64.decode(text), signature.count == 64, let signedAt = WideInt(time), signedAt >= 0,
              !certificate.malformed else {
            return .failure(.malformed)
        }
        let answer = SignedAnswer(keyId: keyId, signature: signature, nonce: nonce, signedAt: signedAt, status: response.status,
                                  method: method, path: path, etag: response.header("etag") ?? "", body: response.body,
                                  certificate: certificate.certificate)
        // A signing key's expiry is judged by this device's clock: a key that leaked after it
        // expired cannot date what it signs back into its life.
        if let failure = verify(answer, at: clock.nowMilliseconds()) { return .failure(failure) }
        if let about, answer.profile != nil, !answer.isAbout(about) { return .failure(.other_profile) }
        let now = clock.monotonicMilliseconds()
        if let newest, signedAt.clampedAdding(ResponseVerifier.tolerance) < newest.signedAt.clampedAdding(max(0, now - newest.monotonic)) {
            return .failure(.too_old)
        }
        heard(signedAt)
        return .success(answer)
    }

    /// Whether a kept answer's signature still holds (a profile read back from disk); a signing
    /// key is judged at the time the answer was signed, when it was verified on the wire.
    func holds(_ answer: SignedAnswer) -> Bool { verify(answer, at: answer.signedAt) == nil }

    /// A verified signing time (an answer's, or one kept on disk): later answers may not be
    /// older than it.
    func heard(_ signedAt: WideInt) {
        let now = clock.monotonicMilliseconds()
        if let newest, newest.signedAt.clampedAdding(max(0, now - newest.monotonic)) >= signedAt { return }
        newest = (signedAt, now)
    }

    private func verify(_ answer: SignedAnswer, at time: WideInt) -> Failure? {
        switch keys.key(answer.keyId, certificate: answer.certificate, at: time) {
        case .failure(let refusal):
            return Failure(rawValue: refusal.rawValue) ?? .unknown_key
        case .success(let key):
            guard signatures.isValidEd25519(signature: answer.signature, message: answer.message, publicKey: key) else { return .invalid }
            return nil
        }
    }
}

extension SignedAnswer {
    /// Whether this answer is about `profileId`, as it names its profile inside what is signed:
    /// its body's `profile_id` (purchases, restores, redemptions, identities), else the path of
    /// `GET /v1/profiles/{profile_id}`, as the core writes it. Compared byte for byte
    /// (`Identity.same`, the identity rule).
    func isAbout(_ profileId: String) -> Bool {
        if case .object(let document)? = try? JSONParser.parse(body), case .string(let named)? = document["profile_id"] {
            return Identity.same(named, profileId)
        }
        return method == "GET" && path == "/v1/profiles/" + Backend.pathSegment(profileId)
    }
}
