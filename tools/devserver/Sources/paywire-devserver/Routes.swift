import FlyingFox
import Foundation
import struct PaywireCore.ServableBundle

/// The backend API of `api/openapi.yaml`, served from a bundle, plus the `/_dev/` control
/// endpoints tests use to switch faults and read what was asked.
struct Routes: HTTPHandler {
    let bundle: ServableBundle
    let state: DevState

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let parts = request.target.path().split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { $0.removingPercentEncoding ?? String($0) }
        if parts.first == "_dev" { return await control(request, Array(parts.dropFirst())) }
        await state.arrived(request.path)
        do {
            let response = try await api(request, parts)
            await state.answered(status: response.statusCode.code)
            return response
        } catch {
            await state.answered(status: 500)
            throw error
        }
    }

    /// One request of the backend API, with the faults in force.
    private func api(_ request: HTTPRequest, _ parts: [String]) async throws -> HTTPResponse {
        guard request.method == .GET else { return problem(405, "only GET is served here") }
        let faults = await state.faults
        if faults.latencyMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(faults.latencyMilliseconds))
        }
        switch faults.failure {
        case .status?: return problem(faults.status, "fault switch: status \(faults.status)")
        case .notModified?: return HTTPResponse(statusCode: .notModified)
        case .malformed?:
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"],
                                body: Data("{\"response_created_at\": 17".utf8))
        case .drop?: return DropBody.response(announcing: 4096)
        case nil: break
        }
        switch (parts.first, parts.count) {
        case ("v1"?, 3) where parts[1] == "placements":
            guard let response = bundle.placements[parts[2]] else { return problem(404, "the bundle has no placement '\(parts[2])'") }
            return serve(response.body, etag: response.etag, request)
        case ("v1"?, 3) where parts[1] == "onboardings":
            guard let response = bundle.onboardings[parts[2]] else { return problem(404, "the bundle has no onboarding '\(parts[2])'") }
            return serve(response.body, etag: response.etag, request)
        case ("v1"?, 3) where parts[1] == "profiles":
            guard let profile = await state.profile(parts[2]) else { return problem(404, "no profile '\(parts[2])'") }
            var body = Data("{\"profile\":".utf8)
            body.append(profile)
            body.append(Data("}".utf8))
            return serve(Array(body), etag: ServableBundle.etag(of: Array(body)), request)
        default:
            return problem(404, "no such resource: \(request.path)")
        }
    }

    /// A ready response, or 304 when the client's copy (If-None-Match) is current.
    private func serve(_ body: [UInt8], etag: String?, _ request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = [.contentType: "application/json", HTTPHeader("Cache-Control"): "no-cache"]
        if let etag {
            headers[HTTPHeader("ETag")] = etag
            if request.headers[HTTPHeader("If-None-Match")] == etag {
                return HTTPResponse(statusCode: .notModified, headers: headers)
            }
        }
        return HTTPResponse(statusCode: .ok, headers: headers, body: Data(body))
    }

    /// `POST /_dev/faults` (set), `GET /_dev/faults`, `GET /_dev/stats`, `POST /_dev/reset`,
    /// `PUT /_dev/profiles/{id}` (a profile object to serve).
    private func control(_ request: HTTPRequest, _ parts: [String]) async -> HTTPResponse {
        switch (request.method, parts.first, parts.count) {
        case (.POST, "faults"?, 1):
            do {
                let faults = try Faults(json: try await request.bodyData)
                await state.setFaults(faults)
                return json(faults.json)
            } catch {
                return problem(400, "\(error)")
            }
        case (.GET, "faults"?, 1):
            return json(await state.faults.json)
        case (.GET, "stats"?, 1):
            let stats = await state.stats
            return json(["requests": stats.requests, "by_path": stats.byPath, "by_status": stats.byStatus, "in_flight": stats.inFlight])
        case (.POST, "reset"?, 1):
            await state.reset()
            return json([:])
        case (.PUT, "profiles"?, 2):
            guard let body = try? await request.bodyData,
                  (try? JSONSerialization.jsonObject(with: body)) is [String: Any] else {
                return problem(400, "the body must be a profile object")
            }
            await state.setProfile(parts[1], body)
            return json([:])
        default:
            return problem(404, "unknown control endpoint")
        }
    }

    private func json(_ object: [String: Any]) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
    }

    /// An error answer with a small JSON body saying why.
    private func problem(_ status: Int, _ message: String) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: ["error": message])) ?? Data()
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: HTTPStatusCode.phrase(for: status)),
                            headers: [.contentType: "application/json"], body: body)
    }
}

extension HTTPStatusCode {
    static func phrase(for status: Int) -> String {
        switch status {
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        default: return "Error"
        }
    }
}
