import PaywireWire

/// The header names device and backend must spell alike, besides the signing headers of
/// `ResponseSignature` and `DocumentSignature`.
public enum APIHeader {
    /// The profile a placement or profile request is made for.
    public static let profileId = "x-paywire-profile-id"
    /// A profile's credential: handed out by the backend in an answer, sent back by the device on
    /// every request naming that profile.
    public static let profileCredential = "x-paywire-profile-credential"
}

/// The error codes of the backend's answers (`{"error": {"code": ...}}`) that a device acts on:
/// each changes what the core does next, so both sides name them from here.
public enum APIErrorCode: String, WireEnum, Sendable {
    /// The request names a profile a device holds, and carries no credential of it.
    case profileCredentialRequired = "profile_credential_required"
    /// The request carries a credential that is not the named profile's.
    case profileCredentialInvalid = "profile_credential_invalid"
    /// An identity whose proof (the app backend's token) the backend could not verify.
    case identityUnverified = "identity_unverified"
    /// The profile may not have the offer it asked the backend to sign.
    case offerNotEligible = "offer_not_eligible"

    /// Whether the code refuses a profile's credential (a 401 that is not about the app's key).
    public var refusesCredential: Bool { self == .profileCredentialRequired || self == .profileCredentialInvalid }
}

/// The shape of every secret the backend hands out (a profile's credential, a redemption
/// token, an operator's session): 32 random bytes as base64url without padding, 43 characters.
/// One rule for both sides: the backend looks up nothing of another shape, and the device keeps
/// nothing of another shape (which also keeps a control character or a line break a broken
/// proxy let through out of the headers it sends back).
public enum SecretTokenText {
    public static let randomBytes = 32
    public static let length = 43

    /// The token's 32 bytes; nil when the text is not a token.
    public static func bytes(of text: some StringProtocol) -> [UInt8]? {
        guard text.utf8.count == length, let bytes = Base64.decodeURL(String(text)), bytes.count == randomBytes else { return nil }
        return bytes
    }

    public static func isWellFormed(_ text: some StringProtocol) -> Bool { bytes(of: text) != nil }
}
