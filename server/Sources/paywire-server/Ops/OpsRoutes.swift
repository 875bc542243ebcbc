import Foundation
import Hummingbird
import NIOCore
import Prometheus
import ServerStore

/// `/healthz` (the process serves), `/readyz` (and its database answers, within two seconds:
/// what a load balancer asks before sending traffic) and `/metrics` (Prometheus' text format).
/// Neither needs the API key: they say nothing about anyone.
enum OpsRoutes {
    static let readinessDeadline = Duration.seconds(2)

    static func register(on routes: ServerRoutes, store: any Storage, registry: PrometheusCollectorRegistry) {
        routes.add(.get, "/healthz", door: .anyone) { _ in json(.ok, "{\"status\":\"ok\"}") }
        routes.add(.get, "/readyz", door: .anyone) { input in
            do {
                try await withDeadline(readinessDeadline) { try await store.ping() }
                return json(.ok, "{\"status\":\"ready\"}")
            } catch {
                input.logger.warning("not ready: the database did not answer", metadata: ["error": "\(StorageProblem.describe(error))"])
                return json(.serviceUnavailable, "{\"status\":\"not_ready\",\"reason\":\"the database does not answer\"}")
            }
        }
        routes.add(.get, "/metrics", door: .anyone) { _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }

    private static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `work`, or an error once `deadline` has passed (the work is cancelled).
    static func withDeadline(_ deadline: Duration, _ work: @escaping @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: deadline)
                throw DeadlinePassed()
            }
            try await group.next()
            group.cancelAll()
        }
    }

    struct DeadlinePassed: Error {}
}
