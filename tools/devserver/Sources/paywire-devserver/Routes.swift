import FlyingFox
import Foundation
// Scoped: FlyingFox has a JSONValue of its own.
import enum PaywireWire.JSONValue
import struct PaywireModel.ServableBundle
import struct PaywireModel.StoreProduct
import struct PaywireModel.Experiment

/// What the server was started with, shared by every request.
struct ServerSetup: Sendable {
    let bundle: ServableBundle
    /// The bundle's A/B tests by placement id (what results are computed for).
    let experiments: [String: [Experiment]]
    /// The test-store catalog (`--products`) by vendor product id.
    let products: [String: StoreProduct]
    let signature: TestStoreSignature
    /// Signs promotional and win-back offers (`POST /v1/offers/sign`) with a test key.
    let offers: OfferSigner
    let trustHostStores: Bool
    /// `--api-key`: when set, every /v1 request must carry `authorization: Api-Key <key>`.
    let apiKey: String?
    /// `--app-store-root`: what App Store notifications' chains must lead to.
    let appStore: JWSVerifier
    let state: DevState
    let store: Store
}

/// A resource of the backend API (`api/openapi.yaml`) and the one method it takes.
enum APIRoute {
    case placement(String), onboarding(String), profile(String), events, purchases, restores, results(String), offerSign
    case notification(NotificationSource)
    case profileAttributes(String), integrationIds(String), attribution

    static func match(_ parts: [String]) -> APIRoute? {
        switch (parts.count, parts.dropFirst().first) {
        case (3, "placements"?): return .placement(parts[2])
        case (3, "onboardings"?): return .onboarding(parts[2])
        case (3, "profiles"?): return .profile(parts[2])
        case (3, "offers"?) where parts[2] == "sign": return .offerSign
        case (2, "events"?): return .events
        case (2, "purchases"?): return .purchases
        case (2, "restores"?): return .restores
        case (4, "experiments"?) where parts[3] == "results": return .results(parts[2])
        case (3, "notifications"?): return NotificationSource(rawValue: parts[2]).map { .notification($0) }
        case (4, "profiles"?) where parts[3] == "attributes": return .profileAttributes(parts[2])
        case (4, "profiles"?) where parts[3] == "integration-ids": return .integrationIds(parts[2])
        case (2, "attribution"?): return .attribution
        default: return nil
        }
    }

    /// The reads the core makes for a profile name it in `x-paywire-profile-id`.
    var needsProfileHeader: Bool {
        switch self {
        case .placement, .onboarding, .profile: return true
        default: return false
        }
    }

    /// Every route but the App Store's notifications: Apple sends no key, and the signature
    /// chain checked against --app-store-root proves where a notification came from.
    var needsAPIKey: Bool {
        if case .notification(.appStore) = self { return false }
        return true
    }

    var method: HTTPMethod {
        switch self {
        case .placement, .onboarding, .profile, .results: return .GET
        case .events, .purchases, .restores, .attribution, .notification, .offerSign: return .POST
        case .profileAttributes, .integrationIds: return .PUT
        }
    }
}

/// The backend API, served from the bundle and the store, with the faults in force; plus
/// the results page and the `/_dev/` control endpoints tests use.
struct Routes: HTTPHandler {
    let setup: ServerSetup
    var state: DevState { setup.state }

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let parts = request.target.path().split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { $0.removingPercentEncoding ?? String($0) }
        switch parts.first {
        case "_dev"?: return await control(request, Array(parts.dropFirst()))
        case "dashboard"? where parts.count == 1:
            guard request.method == .GET else { return Reply.methodNotAllowed(["GET"]) }
            return await dashboard()
        case "v1"?:
            guard let route = APIRoute.match(parts) else { return Reply.error(404, code: "not_found", "no such resource: \(request.path)") }
            guard request.method == route.method else { return Reply.methodNotAllowed([route.method.rawValue]) }
            await state.arrived(request.path)
            do {
                let response = try await api(request, route)
                await state.answered(String(response.statusCode.code))
                return response
            } catch {
                await state.answered(error is CloseWithoutResponse ? "no_response" : "500")
                throw error
            }
        default:
            return Reply.error(404, code: "not_found", "no such resource: \(request.path)")
        }
    }

    /// One request of the backend API: faults first (as a network or proxy would fail), then
    /// the key, then the resource; a lost response after the work is committed.
    private func api(_ request: HTTPRequest, _ route: APIRoute) async throws -> HTTPResponse {
        let faults = await state.faults
        let faulty = faults.applies(to: request.path)
        if faulty {
            if await state.roll(faults.dropRate) { throw CloseWithoutResponse() }
            if faults.latencyMilliseconds > 0 { try await Task.sleep(for: .milliseconds(faults.latencyMilliseconds)) }
            if let failure = answer(faults) { return failure }
        }
        if let apiKey = setup.apiKey, route.needsAPIKey, !Self.sameKey(request.headers[.authorization], "Api-Key " + apiKey) {
            return Reply.error(401, code: "unauthorized", "this server needs 'authorization: Api-Key <key>' with the key it was started with")
        }
        if route.needsProfileHeader, (request.headers[HTTPHeader("x-paywire-profile-id")] ?? "").isEmpty {
            return Reply.error(400, code: "invalid_request", "the x-paywire-profile-id header is required here")
        }
        let response: HTTPResponse
        switch route {
        case .placement(let id):
            guard let body = setup.bundle.placements[id] else { return Reply.error(404, code: "not_found", "the bundle has no placement '\(id)'") }
            response = serve(body.body, etag: body.etag, request)
        case .onboarding(let id):
            guard let body = setup.bundle.onboardings[id] else { return Reply.error(404, code: "not_found", "the bundle has no onboarding '\(id)'") }
            response = serve(body.body, etag: body.etag, request)
        case .profile(let id): response = try await profile(id, request)
        case .events: response = try await events(request, refusing: faulty ? faults.refuseEventsNamed : [])
        case .purchases: response = try await purchase(request)
        case .restores: response = try await restore(request)
        case .results(let id): response = try await results(id)
        case .offerSign: response = try await signOffer(request)
        case .notification(let source): response = try await notification(source, request)
        case .profileAttributes(let id): response = try await profileData(request, kind: .attributes, profileId: id)
        case .integrationIds(let id): response = try await profileData(request, kind: .integrationIdentifiers, profileId: id)
        case .attribution: response = try await profileData(request, kind: .attribution, profileId: nil)
        }
        if faulty, await state.roll(faults.loseResponseRate) { throw CloseWithoutResponse() }
        return response
    }

    /// The answer a failure fault gives instead of the resource, if one is switched on.
    private func answer(_ faults: Faults) -> HTTPResponse? {
        switch faults.failure {
        case .status?:
            return Reply.error(faults.status, code: "fault", "fault switch: status \(faults.status)",
                               headers: faults.retryAfterSeconds.map { [("Retry-After", String($0))] } ?? [])
        case .notModified?: return HTTPResponse(statusCode: .notModified)
        case .malformed?:
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data("{\"response_created_at\": 17".utf8))
        case .drop?: return DropBody.response(announcing: 4096)
        case nil: return nil
        }
    }

    /// A ready response, or 304 when the client's copy (If-None-Match) is current.
    func serve(_ body: [UInt8], etag: String, _ request: HTTPRequest) -> HTTPResponse {
        let headers: [(String, String)] = [("Cache-Control", "no-cache"), ("ETag", etag)]
        if request.headers[HTTPHeader("If-None-Match")] == etag {
            var response = HTTPResponse(statusCode: .notModified)
            for (name, value) in headers { response.headers[HTTPHeader(name)] = value }
            return response
        }
        return Reply.json(bytes: body, headers: headers)
    }

    /// Compares keys in time that does not depend on where they differ.
    private static func sameKey(_ given: String?, _ expected: String) -> Bool {
        let a = Array((given ?? "").utf8), b = Array(expected.utf8)
        var difference = a.count ^ b.count
        for index in 0..<min(a.count, b.count) { difference |= Int(a[index] ^ b[index]) }
        return difference == 0
    }
}
