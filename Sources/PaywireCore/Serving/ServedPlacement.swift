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
enum PlacementSource: String, Sendable {
    case backend, cache, fallback, none
}

/// What served a placement: the placement (or the error when nothing served), its source, and
/// the backend's failure behind a cache or bundle answer (which the answer does not carry; a
/// `log` event does).
struct PlacementAnswer {
    let served: Result<ServedPlacement, WireError>
    let source: PlacementSource
    let failure: WireError?

    init(_ served: ServedPlacement, _ source: PlacementSource, _ failure: WireError? = nil) {
        self.served = .success(served)
        self.source = source
        self.failure = failure
    }

    private init(error: WireError) {
        served = .failure(error)
        source = .none
        failure = error
    }

    /// Nothing could serve the placement: `error` is the answer.
    static func failed(_ error: WireError) -> PlacementAnswer { PlacementAnswer(error: error) }

    /// The envelope a call answers with.
    var response: CallResponse {
        switch served {
        case .success(let placement): return placement.response
        case .failure(let error): return .failure(error)
        }
    }
}
