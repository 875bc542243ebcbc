import PaywireModel

/// A profile's credentials: the rule that decides, from what the server keeps of a profile's
/// credentials and the one a request carries, whether the request may name that profile.
///
/// A credential is a `SecretToken` (32 random bytes, base64url), handed to the device once in
/// the `x-paywire-profile-credential` header and kept only as its SHA-256 digest. It is
/// *pending* until a request first carries it, *used* after. A profile with no used credential
/// is not yet any device's: a request that names it without a matching credential is served and
/// answered with a new one (a profile the server never met is minted so; one whose first answer
/// was lost is issued again). Once a credential of a profile was used, a request naming that
/// profile must carry one of its credentials.
package enum ProfileCredentials {
    /// One credential kept of a profile.
    package struct Kept: Sendable, Equatable {
        package let digest: String
        package let used: Bool

        package init(digest: String, used: Bool) {
            self.digest = digest
            self.used = used
        }
    }

    /// What a request naming a profile comes to.
    package enum Verdict: Sendable, Equatable {
        /// It carries one of the profile's credentials; a pending one is marked used (`digest`).
        case open(markUsed: String?)
        /// The profile is no device's yet: the request is served and a new credential issued.
        case issue
        /// Refused with this problem code (`profile_credential_required`, `profile_credential_invalid`).
        case refused(code: String)
    }

    package static let header = APIHeader.profileCredential
    package static let serversOwn = "the server's own profile"
    package static let required = APIErrorCode.profileCredentialRequired.rawValue
    package static let invalid = APIErrorCode.profileCredentialInvalid.rawValue

    /// The verdict for `kept` (the profile's credentials) and `given` (the digest of the
    /// credential the request carries; nil when it carries none or one of no credential's shape).
    /// Digests are compared in time that does not depend on where they differ.
    package static func verdict(kept: [Kept], given: String?) -> Verdict {
        if let given {
            var match: Kept?
            for credential in kept where same(credential.digest, given) { match = credential }
            if let match { return .open(markUsed: match.used ? nil : match.digest) }
        }
        guard kept.contains(where: \.used) else { return .issue }
        return .refused(code: given == nil ? required : invalid)
    }

    /// Whether `profileId` names a profile the server makes for itself, which no device route
    /// opens whatever it carries: the holder of a web purchase awaiting redemption
    /// (`web_purchase:<checkout session id>`: opened only by its redemption token, through the
    /// profile that redeems it) and a web paywall's visitor (`web-` and 32 hex digits: opened
    /// only by its browser's cookie). Without this, such a profile was open to the first device
    /// request naming it, since no device had used a credential of it: the app key and a session
    /// id (in the success URL, the browser's history, a receipt) took a buyer's purchase (F3).
    package static func isServersOwn(_ profileId: String) -> Bool {
        profileId.hasPrefix(StripeEvent.holderPrefix) || VisitorProfileId.matches(profileId)
    }

    private static func same(_ a: String, _ b: String) -> Bool {
        ConstantTime.same(Array(a.utf8), Array(b.utf8)) == 1
    }
}
