import PaywireWire

/// `POST /v1/profiles/{profile_id}/identity`: the device says its profile is a customer of the
/// app (`identify`, a config's `customer_user_id`). The answer names the customer's profile
/// from now on, as the backend knows it, and what moved to it.
public enum Identity {
    /// The rule of a profile id wherever a record carries one: what `paywire_client_new`'s
    /// `profile_id` must meet too (`checkNormalForm`, the identity rule, among it).
    public static func checkProfileId(_ value: String, _ path: String) throws(WireError) {
        try RecordRules.check(value, path)
        try checkNormalForm(value, path)
    }

    /// The rule of a customer user id: what `identify` and the config's `customer_user_id` must meet.
    public static func checkCustomerUserId(_ value: String, _ path: String) throws(WireError) {
        try RecordRules.check(value, path)
        try checkNormalForm(value, path)
    }

    /// The identity rule, one for the device and the server: a profile id or a customer user id
    /// is taken only in Unicode Normalization Form C. Swift's `==` (and a dictionary's key)
    /// takes canonically equivalent texts for one, SQLite and PostgreSQL compare bytes, and a
    /// token's `sub` comes as its issuer wrote it: were `Jose\u{301}` taken beside `Jos\u{e9}`,
    /// a door could open one for the other. Among NFC texts the two comparisons agree, so every
    /// id taken is one id however it is compared; where an id that did not pass this rule meets
    /// one that did (a token's `sub`), `same` compares their bytes.
    public static func checkNormalForm(_ value: String, _ path: @autoclosure () -> String) throws(WireError) {
        guard !isNormalForm(value) else { return }
        throw WireError.wrongParam(path(), "must be in Unicode Normalization Form C (NFC): an id is the same id only byte for byte")
    }

    /// Whether `value` is in Unicode Normalization Form C. ASCII always is: a device's own ids
    /// (UUIDs) never reach the normalization tables.
    static func isNormalForm(_ value: String) -> Bool {
        if value.utf8.allSatisfy({ $0 < 0x80 }) { return true }
        // The standard library's own NFC (its `==` normalizes with it); public, if underscored,
        // in full and in Embedded Swift alike.
        return value.utf8.elementsEqual(value._nfcCodeUnits)
    }

    /// Whether two profile ids (or customer user ids) are the same id: the same bytes.
    public static func same(_ one: String, _ other: String) -> Bool { one.utf8.elementsEqual(other.utf8) }

    /// The longest identity token taken, in characters: a JWT of a few claims is well under it.
    public static let maxIdentityTokenLength = 8192

    /// The rule of an identity token (`identify`'s and the config's `identity_token`): a compact
    /// JWS, three base64url parts joined by dots, at most `maxIdentityTokenLength` characters.
    /// Only its shape is checked here; the backend checks its signature and claims.
    public static func checkIdentityToken(_ value: String, _ path: String) throws(WireError) {
        guard value.unicodeScalars.count <= maxIdentityTokenLength else {
            throw WireError.wrongParam(path, "must be at most \(maxIdentityTokenLength) characters")
        }
        // Bytes, not Unicode properties: base64url is ASCII, and the tables stay out of the library.
        let parts = value.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let base64URL = { (byte: UInt8) in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(base64URL) }) else {
            throw WireError.wrongParam(path, "must be a JWT: three base64url parts joined by dots")
        }
    }

    /// The request's body.
    public struct Request: Equatable, Sendable {
        public let eventId: String
        public let profileId: String
        public let customerUserId: String
        /// The app's backend's word that this device's user is `customerUserId` (a JWT whose
        /// `sub` is it); nil: none was given.
        public let identityToken: String?

        public init(eventId: String, profileId: String, customerUserId: String, identityToken: String? = nil) {
            self.eventId = eventId
            self.profileId = profileId
            self.customerUserId = customerUserId
            self.identityToken = identityToken
        }

        public func validate() throws(WireError) {
            try RecordRules.checkEventId(eventId, "event_id")
            try checkProfileId(profileId, "profile_id")
            try checkCustomerUserId(customerUserId, "customer_user_id")
            if let identityToken { try checkIdentityToken(identityToken, "identity_token") }
        }

        /// `{event_id, profile_id, customer_user_id, identity_token?}`.
        public func encode() -> [UInt8] {
            var writer = JSONWriter(reservingCapacity: 160 + (identityToken?.utf8.count ?? 0))
            writer.object { writer in
                writer.member("event_id", eventId)
                writer.member("profile_id", profileId)
                writer.member("customer_user_id", customerUserId)
                if let identityToken { writer.member("identity_token", identityToken) }
            }
            return writer.bytes
        }

        /// Reads and checks a body; the path's profile id, when there is one, must be the body's.
        public static func decode(_ bytes: [UInt8], pathProfileId: String? = nil) throws(WireError) -> Request {
            try decode(parsed: try? JSONParser.parse(bytes), pathProfileId: pathProfileId)
        }

        /// Reads and checks a body already parsed (nil: it was no JSON).
        public static func decode(parsed: JSONValue?, pathProfileId: String? = nil) throws(WireError) -> Request {
            let fields = try RecordRules.document(parsed: parsed, what: "the identity request")
            let request = Request(eventId: try fields.string("event_id"), profileId: try fields.string("profile_id"),
                                  customerUserId: try fields.string("customer_user_id"),
                                  identityToken: try fields.optionalString("identity_token"))
            try request.validate()
            if let pathProfileId {
                try checkProfileId(pathProfileId, "profile_id")
                guard same(request.profileId, pathProfileId) else { throw WireError.wrongParam("profile_id", "must be the path's profile id") }
            }
            return request
        }
    }

    /// The answer: `{profile_id, profile, transferred}`.
    public struct Answer: Sendable {
        /// The customer's profile from now on (the asking one, or the one that held the
        /// customer user id first).
        public let profileId: String
        public let profile: RemoteProfile.Snapshot
        public let transferred: [Transfer]

        /// The backend's answer, its profile written once (`ProfileAnswer`).
        public static func encode(profileId: String, profile: ProfileAnswer, transferred: [Transfer]) -> [UInt8] {
            var writer = JSONWriter(reservingCapacity: profile.bytes.count + 128)
            writer.object { writer in
                writer.member("profile_id", profileId)
                writer.key("profile")
                writer.raw(profile.bytes)
                writer.key("transferred")
                writer.array { writer in for transfer in transferred { transfer.write(to: &writer) } }
            }
            return writer.bytes
        }

        /// Reads the backend's answer; a malformed one is `decoding_failed` naming the member.
        /// A `transferred` entry that cannot be read is left out: it cannot be told to the app,
        /// and the profile beside it is still the truth.
        public static func decode(_ bytes: [UInt8]) throws(WireError) -> Answer {
            let fields = try RecordRules.document(bytes, what: "the identity answer")
            let profileId: String
            do throws(WireError) {
                profileId = try RecordRules.text(fields, "profile_id")
            } catch {
                throw WireError(.decodingFailed, "the identity answer's \(error.message)", details: error.details)
            }
            guard case .object(let profile)? = fields.optional("profile") else {
                throw WireError(.decodingFailed, "the identity answer has no profile", details: JSONObject([("field", .string("profile"))]))
            }
            return Answer(profileId: profileId, profile: try RemoteProfile.parse(profile: profile),
                          transferred: Transfer.readable(fields.optional("transferred")))
        }
    }
}
