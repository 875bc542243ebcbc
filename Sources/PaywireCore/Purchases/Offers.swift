import PaywireModel
import PaywireWire

/// A promotional or win-back offer a purchase is made with. The store only honours such an
/// offer with a signature from the developer's key, which only the backend holds, so the
/// backend also decides whether this profile may have it.
struct PurchaseOffer: Equatable, Sendable {
    /// The model's offer types (`OfferType`): the backend reads the same names.
    typealias Kind = OfferType

    let kind: Kind
    let id: String

    init(kind: Kind, id: String) {
        self.kind = kind
        self.id = id
    }

    /// `{type: promotional | win_back, id}`.
    init(_ fields: Fields) throws(WireError) {
        guard let kind = try fields.optionalEnum("type", Kind.self) else {
            throw WireError.wrongParam(fields.fieldPath("type"), "is required (promotional or win_back)")
        }
        self.kind = kind
        id = try fields.identifier("id")
    }

    /// The offer a paywall product names: win-back when it names both (a lapsed subscriber's
    /// offer is the more specific one; the backend refuses it to anyone else).
    init?(_ reference: ProductReference?) {
        guard let reference else { return nil }
        if let id = reference.winBackOfferId {
            self.init(kind: .winBack, id: id)
        } else if let id = reference.promotionalOfferId {
            self.init(kind: .promotional, id: id)
        } else {
            return nil
        }
    }

    /// The details every offer error carries, so a host can tell which offer failed.
    func details(productId: String, reason: String) -> JSONObject {
        JSONObject([("reason", .string(reason)), ("product_id", .string(productId)),
                    ("offer_type", .string(kind.rawValue)), ("offer_id", .string(id))])
    }
}

/// An offer the backend signed for one purchase: what the store needs to apply it
/// (StoreKit's promotional offer: key id, nonce, timestamp, signature, and the application
/// username the signature covers).
struct SignedOffer: Equatable, Sendable {
    let offer: PurchaseOffer
    let keyId: String
    let nonce: String
    let timestamp: WideInt
    let signature: String
    /// The profile id, lowercased: the `applicationUsername` (appAccountToken) signed over.
    let applicationUsername: String

    /// `{type, id, key_id, nonce, timestamp, signature, application_username}` in `store.purchase`.
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("type", offer.kind.rawValue)
            writer.member("id", offer.id)
            writer.member("key_id", keyId)
            writer.member("nonce", nonce)
            writer.member("timestamp", timestamp)
            writer.member("signature", signature)
            writer.member("application_username", applicationUsername)
        }
    }
}

/// `POST {base_url}/v1/offers/sign` (api/openapi.yaml): the request, and what its answer means.
enum OfferSigning {
    static func body(profileId: String, productId: String, offer: PurchaseOffer) -> [UInt8] {
        OfferSignRequest(profileId: profileId, productId: productId, offerId: offer.id, offerType: offer.kind).encode()
    }

    /// The signed offer, or a `purchase_failed` error whose `details.reason` says why:
    /// `offer_not_eligible` (the backend refused this profile the offer), else
    /// `offer_signing_failed` with the transport's or the backend's word.
    static func interpret(_ outcome: HTTPOutcome, offer: PurchaseOffer, productId: String,
                          profileId: String) -> Result<SignedOffer, WireError> {
        let failed = { (reason: String, message: String, extra: [(key: String, value: JSONValue)]) -> Result<SignedOffer, WireError> in
            .failure(WireError(.purchaseFailed, message,
                               details: JSONObject(offer.details(productId: productId, reason: reason).members + extra)))
        }
        let response: HTTPResponse
        switch outcome {
        case .timedOut: return failed("offer_signing_failed", "the backend did not sign the offer in time", [("underlying_error", .string("timeout"))])
        case .failed(let code, let message): return failed("offer_signing_failed", "the offer could not be signed: \(message)", [("underlying_error", .string(code))])
        case .response(let answer): response = answer
        }
        guard response.status == 200 else {
            let document = try? JSONParser.parse(response.body)
            var code: String?
            var message: String?
            if case .object(let root)? = document, case .object(let error)? = root["error"] {
                if case .string(let text)? = error["code"] { code = text }
                if case .string(let text)? = error["message"] { message = text }
            }
            let status: (key: String, value: JSONValue) = ("status", .number(JSONNumber(response.status)))
            if response.status == 403, code == APIErrorCode.offerNotEligible.rawValue {
                return failed(APIErrorCode.offerNotEligible.rawValue, message ?? "this profile may not have this offer", [status])
            }
            return failed("offer_signing_failed", "the backend answered HTTP \(response.status) to the offer signing: \(message ?? "no reason given")",
                          [status, ("underlying_error", .string(code ?? "http_\(response.status)"))])
        }
        guard let signed = OfferSignature.decode(response.body) else {
            return failed("offer_signing_failed", "the backend's offer signature is not {key_id, nonce, timestamp, signature}",
                          [("underlying_error", .string("decoding_failed"))])
        }
        return .success(SignedOffer(offer: offer, keyId: signed.keyId, nonce: signed.nonce, timestamp: signed.timestamp,
                                    signature: signed.signature, applicationUsername: profileId.lowercased()))
    }
}
