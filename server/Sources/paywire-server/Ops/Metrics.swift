import Metrics
import PaywireModel
import Prometheus

/// The server's metrics, through swift-metrics' API into a Prometheus registry that
/// `GET /metrics` writes out: requests by route, method and status, their latency as a
/// histogram, records ingested by outcome, purchases and notifications by outcome.
enum ServerMetrics {
    /// The registry `/metrics` writes; swift-metrics reports into it from the start.
    static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
                                                   .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
                                                   .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10)]
        MetricsSystem.bootstrap(factory)
        return registry
    }

    /// One request answered (`status`: the code, or `no_response` for a connection closed without one).
    static func request(route: String, method: String, status: String, nanoseconds: Int64) {
        Counter(label: "paywire_http_requests_total", dimensions: [("route", route), ("method", method), ("status", status)]).increment()
        Timer(label: "paywire_http_request_duration_seconds", dimensions: [("route", route), ("method", method)])
            .recordNanoseconds(nanoseconds)
    }

    private static let accepted = Counter(label: "paywire_events_ingested_total", dimensions: [("outcome", "accepted")])
    private static let duplicates = Counter(label: "paywire_events_ingested_total", dimensions: [("outcome", "duplicate")])

    /// Records of a stored batch: newly stored, and already stored (sent again).
    static func events(accepted count: Int, duplicates repeated: Int) {
        accepted.increment(by: count)
        duplicates.increment(by: repeated)
    }

    /// A store notification by source (`app_store`, `play_store`, `test`, `stripe`) and outcome
    /// (`applied`, `recorded`, `duplicate`, `unknown_transaction`, `refused`; Stripe's also
    /// `invalid_signature`, `not_configured`).
    static func notification(source: StoreName, outcome: String) {
        Counter(label: "paywire_notifications_total", dimensions: [("source", source.rawValue), ("outcome", outcome)]).increment()
    }

    /// A web purchase's redemption by result (`redeemed`, `expired`, `invalid`, ...).
    static func redemption(_ result: String) {
        Counter(label: "paywire_redemptions_total", dimensions: [("result", result)]).increment()
    }

    /// A purchase moved to another profile, by reason (`restore`, `identity`).
    static func transfer(_ reason: String) {
        Counter(label: "paywire_transfers_total", dimensions: [("reason", reason)]).increment()
    }

    /// A connection the server ended early, by why: `shed` (a connection limit), `head_timeout`,
    /// `body_timeout` (a request that came too slowly).
    static func connection(_ ended: String) {
        Counter(label: "paywire_connections_ended_total", dimensions: [("reason", ended)]).increment()
    }

    /// A purchase or restored transaction by outcome (`verified`, `pending`, or the refusal's code).
    static func purchase(_ outcome: String) {
        Counter(label: "paywire_purchases_total", dimensions: [("outcome", outcome)]).increment()
    }
}
