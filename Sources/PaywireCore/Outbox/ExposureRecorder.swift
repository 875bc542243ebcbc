import PaywireModel
import PaywireWire

/// Where exposures are kept for the backend (the outbox).
protocol ExposureRecorder: AnyObject {
    /// Keeps the exposure durably before returning its record's id; nil when analytics are
    /// disabled (nothing recorded). An exposure the backend would refuse is refused here,
    /// naming the member (`wrong_param`), and nothing is kept.
    func paywallShown(_ exposure: Exposure) throws(WireError) -> String?
}
