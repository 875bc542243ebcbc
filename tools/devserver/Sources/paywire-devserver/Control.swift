import FlyingFox
// Scoped: FlyingFox has a JSONValue of its own.
import enum PaywireWire.JSONValue

/// The `/_dev/` endpoints tests use (not part of the API spec): faults, counts, reset, dev
/// profiles, and what was stored.
extension Routes {
    func control(_ request: HTTPRequest, _ parts: [String]) async -> HTTPResponse {
        do {
            return try await controlRoute(request, parts)
        } catch {
            return Reply.error(500, code: "internal", "the store failed: \(error)")
        }
    }

    private func controlRoute(_ request: HTTPRequest, _ parts: [String]) async throws -> HTTPResponse {
        func query(_ name: String) -> String? { request.query.first { $0.name == name }?.value }
        switch (request.method, parts.first, parts.count) {
        case (.POST, "faults"?, 1):
            do {
                let faults = try Faults(json: Array(try await request.bodyData))
                await state.setFaults(faults)
                return Reply.json(faults.json)
            } catch {
                return Reply.error(400, code: "invalid_request", "\(error)")
            }
        case (.GET, "faults"?, 1):
            return Reply.json(await state.faults.json)
        case (.GET, "stats"?, 1):
            return Reply.json(await state.stats)
        case (.POST, "reset"?, 1):
            await state.reset()
            try await setup.store.reset()
            return Reply.json(.object([]))
        case (.PUT, "profiles"?, 2):
            guard let body = try? await request.bodyData, let profile = try? JSONValue(parsing: Array(body)), profile.isObject else {
                return Reply.error(400, code: "invalid_request", "the body must be a profile object")
            }
            await state.setProfile(parts[1], profile)
            return Reply.json(.object([]))
        case (.GET, "events"?, 1):
            return Reply.json(bytes: try await setup.store.events(profileId: query("profile_id"), name: query("name")))
        case (.GET, "events"?, 2) where parts[1] == "summary":
            return Reply.json(try await setup.store.eventSummary())
        case (.GET, "notifications"?, 1):
            return Reply.json(.object([("notifications", try await setup.store.notificationLog())]))
        case (.GET, "profile-data"?, 1):
            guard let id = query("profile_id"), !id.isEmpty else { return Reply.error(400, code: "invalid_request", "profile_id is required") }
            return Reply.json(try await setup.store.profileData(profileId: id))
        case (.GET, "offers"?, 2) where parts[1] == "key":
            return Reply.json(.object([("bundle_id", .string(setup.offers.bundleId)), ("key_id", .string(setup.offers.keyId)),
                                       ("public_key_pem", .string(setup.offers.publicKeyPEM))]))
        case (.GET, "purchases"?, 1):
            return Reply.json(.object([("purchases", try await setup.store.purchaseLog(profileId: query("profile_id")))]))
        default:
            return Reply.error(404, code: "not_found", "unknown control endpoint")
        }
    }
}
