import PaywireWire

/// What redeeming a web purchase's link came to (`RedemptionResult.result` of api/openapi.yaml),
/// decided by the backend and reported by the device as it is.
public enum RedemptionResult: String, WireEnum, Sendable {
    case redeemed, expired, invalid
    case alreadyRedeemed = "already_redeemed"
    case belongsToAnotherProfile = "belongs_to_another_profile"
}

/// `POST /v1/redemptions`: the device sends a link's token for its profile. One codec for the
/// device that writes it and the backend that reads it, so both hold the same shape and limits.
public struct RedemptionRequest: Equatable, Sendable {
    /// The longest token either side takes, in bytes: the backend's tokens are 43 characters,
    /// and a longer one is refused before it is sent or looked up.
    public static let maxTokenBytes = 256

    public let token: String
    public let profileId: String

    public init(token: String, profileId: String) {
        self.token = token
        self.profileId = profileId
    }

    /// `{token, profile_id}`.
    public func encode() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64 + token.utf8.count + profileId.utf8.count)
        writer.object { writer in
            writer.member("token", token)
            writer.member("profile_id", profileId)
        }
        return writer.bytes
    }

    /// Reads and checks a body already parsed (nil: it was no JSON): both members non-empty
    /// strings, the token at most `maxTokenBytes`, the profile id at most an identifier's length.
    public static func decode(parsed: JSONValue?) throws(WireError) -> RedemptionRequest {
        let fields = try RecordRules.document(parsed: parsed, what: "the redemption request")
        let request = RedemptionRequest(token: try fields.string("token"), profileId: try fields.string("profile_id"))
        guard !request.token.isEmpty, request.token.utf8.count <= maxTokenBytes else {
            throw WireError.wrongParam("token", "must be 1 to \(maxTokenBytes) bytes")
        }
        guard !request.profileId.isEmpty, request.profileId.unicodeScalars.count <= RecordRules.maxIdentifierLength else {
            throw WireError.wrongParam("profile_id", "must be 1 to \(RecordRules.maxIdentifierLength) characters")
        }
        return request
    }
}

/// The backend's answer to a redemption: `{result, profile_id, profile}`, the profile as it now
/// stands (`RedemptionResult` of api/openapi.yaml).
public enum RedemptionAnswer {
    /// The answer's bytes around a profile already written (`ProfileAnswer.bytes`).
    public static func encode(result: RedemptionResult, profileId: String, profile: [UInt8]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: profile.count + 96)
        writer.object { writer in
            writer.member("result", result.rawValue)
            writer.member("profile_id", profileId)
            writer.key("profile")
            writer.raw(profile)
        }
        return writer.bytes
    }

    /// The result and the profile object of an answer; anything else is `decoding_failed`
    /// naming the member.
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> (result: RedemptionResult, profile: JSONObject) {
        guard case .object(let document)? = try? JSONParser.parse(bytes) else {
            throw WireError(.decodingFailed, "the backend's redemption answer is not a JSON object")
        }
        guard case .string(let text)? = document["result"], let result = RedemptionResult(rawValue: text) else {
            throw WireError(.decodingFailed, "the backend's redemption answer has no known result",
                            details: JSONObject([("field", .string("result"))]))
        }
        guard case .object(let profile)? = document["profile"] else {
            throw WireError(.decodingFailed, "the backend's redemption answer has no profile", details: JSONObject([("field", .string("profile"))]))
        }
        return (result, profile)
    }
}
