import PaywireModel
import PaywireWire

/// A placement served to the profile, as the parts hand it to each other: a paywall (encoded
/// once) or an onboarding. Encoded into an envelope only where a call is answered.
enum ServedPlacement {
    case paywall(ServedPaywall)
    case onboarding(Onboarding)

    /// The success envelope a call answers with.
    var response: CallResponse {
        switch self {
        case .paywall(let served): return CallResponse(status: .ok, envelope: served.envelope)
        case .onboarding(let onboarding): return .success { writer in onboarding.write(to: &writer) }
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
