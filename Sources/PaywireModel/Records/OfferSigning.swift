import PaywireWire

/// The kind of a store offer that needs the developer's signature: a promotional offer (for a
/// product's subscribers) or a win-back offer (for its lapsed ones).
public enum OfferType: String, WireEnum, Sendable {
    case promotional
    case winBack = "win_back"
}

/// `POST /v1/offers/sign` (`OfferSignRequest` of api/openapi.yaml): which profile wants which
/// offer of which product. One codec for the device that writes it and the backend that reads it.
public struct OfferSignRequest: Equatable, Sendable {
    public let profileId: String
    public let productId: String
    public let offerId: String
    public let offerType: OfferType

    public init(profileId: String, productId: String, offerId: String, offerType: OfferType) {
        self.profileId = profileId
        self.productId = productId
        self.offerId = offerId
        self.offerType = offerType
    }

    private static let members: Set<String> = ["profile_id", "vendor_product_id", "offer_id", "offer_type"]

    /// `{profile_id, vendor_product_id, offer_id, offer_type}`.
    public func encode() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        writer.object { writer in
            writer.member("profile_id", profileId)
            writer.member("vendor_product_id", productId)
            writer.member("offer_id", offerId)
            writer.member("offer_type", offerType.rawValue)
        }
        return writer.bytes
    }

    /// Reads and checks a body already parsed (nil: it was no JSON): the four members, each a
    /// non-empty string, and nothing else.
    public static func decode(parsed: JSONValue?) throws(WireError) -> OfferSignRequest {
        let fields = try RecordRules.document(parsed: parsed, what: "the offer signing request")
        if let unknown = fields.object.keys.first(where: { !members.contains($0) }) {
            throw WireError.wrongParam(unknown, "is not a member of OfferSignRequest")
        }
        func text(_ key: String) throws(WireError) -> String {
            let value = try fields.string(key)
            guard !value.isEmpty else { throw WireError.wrongParam(key, "must not be empty") }
            return value
        }
        guard let offerType = try fields.optionalEnum("offer_type", OfferType.self) else {
            throw WireError.wrongParam("offer_type", "is required (promotional or win_back)")
        }
        return OfferSignRequest(profileId: try text("profile_id"), productId: try text("vendor_product_id"),
                                offerId: try text("offer_id"), offerType: offerType)
    }
}

/// The backend's signature of an offer (`OfferSignature` of api/openapi.yaml): what the store
/// needs besides the offer's ids to apply it.
public struct OfferSignature: Equatable, Sendable {
    public let keyId: String
    public let nonce: String
    /// When it was signed (ms since the epoch): the store refuses an old one.
    public let timestamp: WideInt
    /// Base64 of the DER ECDSA signature.
    public let signature: String

    public init(keyId: String, nonce: String, timestamp: WideInt, signature: String) {
        self.keyId = keyId
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
    }

    /// `{key_id, nonce, timestamp, signature}`.
    public func encode() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256)
        writer.object { writer in
            writer.member("key_id", keyId)
            writer.member("nonce", nonce)
            writer.member("timestamp", timestamp)
            writer.member("signature", signature)
        }
        return writer.bytes
    }

    /// The signature an answer holds; nil when it is not `{key_id, nonce, timestamp,
    /// signature}` with non-empty texts and a whole timestamp.
    public static func decode(_ bytes: [UInt8]) -> OfferSignature? {
        guard case .object(let root)? = try? JSONParser.parse(bytes), case .string(let keyId)? = root["key_id"], !keyId.isEmpty,
              case .string(let nonce)? = root["nonce"], !nonce.isEmpty,
              case .number(let time)? = root["timestamp"], let timestamp = time.wideValue,
              case .string(let signature)? = root["signature"], !signature.isEmpty else { return nil }
        return OfferSignature(keyId: keyId, nonce: nonce, timestamp: timestamp, signature: signature)
    }
}
