import PaywireModel
import PaywireWire

/// What a backend answer's judged signature (`AnswerTrust`) does to the profile it applies to.
extension Profile {
    /// An answer that carries the profile was applied: the profile says how its signature was
    /// judged, and keeps the answer when it was verified. An answer that failed, or was not
    /// signed, covers nothing: no signature stays kept, so none can vouch for what it said.
    mutating func answered(_ trust: AnswerTrust) {
        verification = trust.verification
        signedAnswer = trust.verification == .verified ? trust.signed : nil
        signedConfirmation = nil
    }

    /// An answer that the profile is unchanged (304) or unknown (404) was applied. A failed one
    /// marks the profile failed; a verified one marks it verified unless it had failed (only an
    /// answer that carries the profile can cover it again), and a verified 304 for the kept
    /// answer's ETag is kept beside it: read back, it dates the kept answer's trust.
    mutating func confirmed(_ trust: AnswerTrust) {
        switch trust.verification {
        case .failed:
            verification = .failed
        case .verified:
            if verification != .failed { verification = .verified }
            if let signed = trust.signed, signed.status == 304, !signed.etag.isEmpty,
               ResponseSignature.signedETag(signed.etag) == signedAnswer.map({ ResponseSignature.signedETag($0.etag) }) {
                signedConfirmation = signed
            }
        case .not_requested, .store:
            break
        }
    }
}
