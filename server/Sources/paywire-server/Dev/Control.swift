import Foundation
import Hummingbird
import NIOCore
import PaywireModel
import PaywireWire
import ServerDomain
import ServerStore

/// The `/_dev/` endpoints of `--dev` (not in the API spec): fault switches, request counts,
/// reset, authored profiles, and what was stored, for tests and demos.
enum DevRoutes {
    static func register(on routes: ServerRoutes, api: API, dev: DevState) {
        let setup = api.setup, store = setup.store
        routes.add(.post, "/_dev/faults", door: .operator(.development), bodyLimit: bodyLimit) { input in
            do {
                let faults = try Faults(json: input.body)
                await dev.setFaults(faults)
                return json(faults.json)
            } catch {
                return ErrorBody.response(.badRequest, code: "invalid_request", "\(error)")
            }
        }
        routes.add(.get, "/_dev/faults", door: .operator(.development)) { _ in json(await dev.faults.json) }
        routes.add(.get, "/_dev/stats", door: .operator(.development)) { _ in json(await dev.stats) }
        routes.add(.post, "/_dev/reset", door: .operator(.development)) { _ in
            await dev.reset()
            try await store.reset()
            return json(.object([]))
        }
        routes.add(.put, "/_dev/profiles/{profile_id}", door: .operator(.development), bodyLimit: bodyLimit) { input in
            let id = input.path("profile_id")
            guard let document = input.parsed else {
                return ErrorBody.response(.badRequest, code: "invalid_request", "the body must be a profile as the spec's Profile describes it")
            }
            do {
                await dev.setProfile(id, try BackendProfile.authored(document))
            } catch {
                return ErrorBody.response(.badRequest, code: "invalid_request", "the profile: \(error)")
            }
            return json(.object([]))
        }
        routes.add(.get, "/_dev/events", door: .operator(.development)) { input in
            json(bytes: events(try await store.events(profileId: input.query["profile_id"], name: input.query["name"])))
        }
        routes.add(.get, "/_dev/events/summary", door: .operator(.development)) { _ in
            let summary = try await store.eventSummary()
            return json(.object([("stored", .int(summary.stored)), ("duplicates", .int(summary.duplicates)), ("batches", .int(summary.batches)),
                                 ("dropped_reported", .int(summary.droppedReported))]))
        }
        routes.add(.get, "/_dev/notifications", door: .operator(.development)) { _ in
            json(.object([("notifications", .array(try await store.notificationLog().map { entry in
                .object([("source", .string(entry.source)), ("notification_id", .string(entry.notificationId)), ("type", .string(entry.type)),
                         ("subtype", entry.subtype.map { .string($0) } ?? .null), ("original_transaction_id", .string(entry.originalTransactionId)),
                         ("profile_id", .string(entry.profileId)), ("outcome", .string(entry.outcome))])
            }))]))
        }
        routes.add(.get, "/_dev/profile-data", door: .operator(.development)) { input in
            guard let id = input.query["profile_id"], !id.isEmpty else {
                return ErrorBody.response(.badRequest, code: "invalid_request", "profile_id is required")
            }
            return json(profileData(try await store.profileData(profileId: id)))
        }
        routes.add(.get, "/_dev/offers/key", door: .operator(.development)) { _ in
            guard let offers = setup.offers else { return ErrorBody.response(.notFound, code: "not_found", "no offer key") }
            return json(.object([("bundle_id", .string(offers.bundleId)), ("key_id", .string(offers.keyId)),
                                 ("public_key_pem", .string(offers.publicKeyPEM))]))
        }
        routes.add(.get, "/_dev/purchases", door: .operator(.development)) { input in
            json(.object([("purchases", .array(try await store.purchaseLog(profileId: input.query["profile_id"]).map { entry in
                // The request as sent, with its outcome.
                guard case .object(var object)? = try? JSONValue(parsing: Array(entry.request.utf8)) else { return .null }
                object.set("status", .string(entry.status))
                if !entry.code.isEmpty { object.set("code", .string(entry.code)) }
                return .object(object)
            }))]))
        }
    }

    /// `{"events": [...]}` from the stored texts, as they are.
    static func events(_ texts: [String]) -> [UInt8] {
        var body = Array("{\"events\":[".utf8)
        for (index, text) in texts.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: text.utf8)
        }
        body.append(contentsOf: "]}".utf8)
        return body
    }

    /// `{attributes, integration_identifiers, attributions: {source: ...}}`.
    static func profileData(_ entries: [ProfileDataEntry]) -> JSONValue {
        var attributes = JSONValue.object([]), ids = JSONValue.object([])
        var attributions: [(String, JSONValue)] = []
        for entry in entries {
            let body = (try? JSONValue(parsing: Array(entry.body.utf8))) ?? .null
            switch ProfileDataRecord.Kind(rawValue: entry.kind) {
            case .attributes?: attributes = body
            case .integrationIdentifiers?: ids = body
            case .attribution?: attributions.append((entry.source, body))
            case nil: continue
            }
        }
        return .object([("attributes", attributes), ("integration_identifiers", ids), ("attributions", .object(attributions))])
    }

    /// The largest body a development route takes.
    static let bodyLimit = 1 << 20

    static func json(_ value: JSONValue) -> Response { json(bytes: JSONWriter.encode(value)) }

    static func json(bytes: [UInt8]) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
