import PaywireModel
import PaywireWire

/// A placement served to the profile, as the parts hand it to each other: a paywall (encoded
/// once), a paywall placement that shows this profile none, or an onboarding. Encoded into an
/// envelope only where a call is answered.
enum ServedPlacement {
    case paywall(ServedPaywall)
    case skipped(SkippedPaywall)
    case onboarding(Onboarding)

    /// The envelope `get_paywall` (or `get_onboarding`) answers with.
    var response: CallResponse {
        switch self {
        case .paywall(let served): return CallResponse(status: .ok, envelope: served.envelope)
        case .skipped(let skipped): return .failure(skipped.error)
        case .onboarding(let onboarding): return .success { writer in onboarding.write(to: &writer) }
        }
    }
}

/// A paywall placement that shows this profile no paywall: it is in a holdout variation, or in
/// no audience. `get_presentation` says so; `get_paywall` answers an error.
struct SkippedPaywall {
    enum Why {
        /// The profile's variation is a holdout; its exposure is what the experiment counts.
        case holdout(Exposure)
        case noAudienceMatch
    }

    let placementId: String
    let rules: PresentationRules
    let why: Why

    /// What `get_paywall` answers: `invalid_fallback` with no audience (as it always has),
    /// `not_found` in a holdout; `details.reason` says which.
    var error: WireError {
        switch why {
        case .noAudienceMatch:
            return WireError(.invalidFallback, "no audience of placement '\(placementId)' matches this profile",
                             details: JSONObject([("placement_id", .string(placementId)), ("reason", .string("no_audience_match"))]))
        case .holdout(let exposure):
            return WireError(.notFound, "this profile is in the holdout of placement '\(placementId)': it is shown no paywall",
                             details: JSONObject([("placement_id", .string(placementId)), ("variation_id", .string(exposure.variationId)),
                                                  ("reason", .string("holdout"))]))
        }
    }
}

/// Which source served a placement: the backend's answer (now cached), the cache or the bundle
/// after the backend failed, or none when nothing could.
enum PlacementSource: String, WireEnum, Sendable {
    case backend, cache, fallback, none
}

/// What served a placement: the placement (or the error when nothing served), its source, and
/// the backend's failure behind a cache or bundle answer (which the answer does not carry; a
/// `log` event does).
struct PlacementAnswer {
    let served: Result<ServedPlacement, WireError>
    let source: PlacementSource
    let failure: WireError?
    /// The envelope as served, made once with the answer: a warm `get_paywall` hands out the
    /// paywall's bytes without copying the paywall again.
    private let plainResponse: CallResponse

    init(_ served: ServedPlacement, _ source: PlacementSource, _ failure: WireError? = nil) {
        plainResponse = served.response
        self.served = .success(served)
        self.source = source
        self.failure = failure
    }

    private init(error: WireError) {
        served = .failure(error)
        source = .none
        failure = error
        plainResponse = .failure(error)
    }

    /// Nothing could serve the placement: `error` is the answer.
    static func failed(_ error: WireError) -> PlacementAnswer { PlacementAnswer(error: error) }

    /// The envelope a call answers with. A paywall a copy on the device served because the
    /// backend refused the request says so in its answer: the app's key is wrong, and a demo
    /// that shows a paywall all the same would hide it.
    var response: CallResponse {
        // The refusal first: the common answer (none) then copies nothing but the envelope.
        if let refusal, case .success(.paywall(let paywall)) = served {
            return .success(refusal.annotating(paywall.paywall, source: source))
        }
        return plainResponse
    }

    /// What the backend said when it refused the request (401 or 403: the credentials), when a
    /// copy on the device served because of it.
    var refusal: BackendRefusal? {
        guard source == .cache || source == .fallback, let failure else { return nil }
        return BackendRefusal(failure)
    }
}

/// The backend refused a request for the client's credentials (HTTP 401 or 403): its status
/// and, when its body says one, its error code (`unauthorized`).
struct BackendRefusal {
    let status: Int
    let code: String?

    init?(_ failure: WireError) {
        guard case .number(let number)? = failure.details["status"], let status = number.intValue, status == 401 || status == 403 else {
            return nil
        }
        self.status = status
        if case .string(let code)? = failure.details["backend_code"] { self.code = code } else { code = nil }
    }

    /// The paywall's encoded object with `source` and `backend_error` added at its end: the
    /// paywall was encoded once, by this library's writer, so it is an object with members.
    func annotating(_ paywall: [UInt8], source: PlacementSource) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 96)
        writer.object { writer in
            writer.member("source", source.rawValue)
            writer.key("backend_error")
            writer.object { writer in
                writer.member("status", status)
                writer.member("code", code)
            }
        }
        guard paywall.last == UInt8(ascii: "}"), let opening = writer.bytes.first, opening == UInt8(ascii: "{") else { return paywall }
        return Array(paywall.dropLast()) + [UInt8(ascii: ",")] + writer.bytes.dropFirst()
    }
}
