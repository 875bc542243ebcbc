import FlyingFox
import Foundation
// Scoped: FlyingFox has a JSONValue of its own.
import enum PaywireWire.JSONValue
import struct PaywireModel.ServableBundle

/// The stored resources of the API: events, purchases, restores, profiles and results.
extension Routes {
    /// `POST /v1/events`: `{accepted, duplicates}`, or `400` naming the bad records' ids.
    func events(_ request: HTTPRequest, refusing names: [String]) async throws -> HTTPResponse {
        let body = Array(try await request.bodyData)
        switch EventBatch.parse(body) {
        case .failure(.request(let message)):
            return Reply.error(400, code: "invalid_request", message)
        case .failure(.records(let message, let ids)):
            return Reply.error(400, code: "invalid_record", message, extra: [("event_ids", .strings(ids))])
        case .success(let batch):
            let refused = batch.records.filter { names.contains($0.name) }
            if !refused.isEmpty {
                return Reply.error(400, code: "invalid_record", "fault switch: refuse_events_named \(names)",
                                   extra: [("event_ids", .strings(refused.map(\.eventId)))])
            }
            let stored = try await setup.store.storeEvents(batch.records, dropped: batch.dropped)
            return Reply.json(.object([("accepted", .int(stored.accepted)), ("duplicates", .int(stored.duplicates))]))
        }
    }

    /// `POST /v1/purchases`: validates and grants; `422` with the profile when refused.
    func purchase(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = Array(try await request.bodyData)
        let post: PurchasePost
        do {
            post = try PurchaseRequests.purchase(body)
        } catch {
            return Reply.error(400, code: "invalid_request", error.message)
        }
        let product = setup.products[post.claim.vendorProductId]
        let outcome = try await setup.store.recordPurchase(post, product: product, refusal: check(post.claim),
                                                           request: String(decoding: body, as: UTF8.self))
        let profile = try await profileBody(post.profileId) ?? .object([])
        switch outcome {
        case .success(let status):
            return Reply.json(.object([
                ("profile", profile),
                ("transaction", .object([("transaction_id", .string(post.claim.transactionId)), ("status", .string(status))])),
            ]))
        case .failure(let refusal):
            let error = JSONValue.object([("code", .string(refusal.code)), ("message", .string(refusal.message))])
            return Reply.json(.object([("error", error), ("profile", profile)]), status: 422)
        }
    }

    /// `POST /v1/restores`: restores what verifies to the restoring profile, lists the rest.
    func restore(_ request: HTTPRequest) async throws -> HTTPResponse {
        let post: RestorePost
        let body = Array(try await request.bodyData)
        do {
            post = try PurchaseRequests.restore(body)
        } catch {
            return Reply.error(400, code: "invalid_request", error.message)
        }
        var refusals: [String: Refusal] = [:]
        for claim in post.claims { refusals[claim.transactionId] = check(claim) }
        let outcome = try await setup.store.recordRestore(post, products: setup.products, refusals: refusals)
        return Reply.json(.object([
            ("profile", try await profileBody(post.profileId) ?? .object([])),
            ("restored", .array(outcome.restored.map {
                .object([("transaction_id", .string($0.transactionId)), ("vendor_product_id", .string($0.vendorProductId))])
            })),
            ("refused", .array(outcome.refused.map {
                .object([("transaction_id", .string($0.0.transactionId)), ("code", .string($0.1.code)), ("message", .string($0.1.message))])
            })),
        ]))
    }

    /// Why a store's claim cannot be granted, checked without the store: the store is one this
    /// server trusts, the product is in its catalog, and a test-store claim carries the dev
    /// key's signature.
    func check(_ claim: TransactionClaim) -> Refusal? {
        if claim.store != "test" && !setup.trustHostStores {
            return Refusal(code: "unsupported_store", message: "store '\(claim.store)' is not checked here; start the server with --trust-host-stores to grant it")
        }
        if setup.products[claim.vendorProductId] == nil {
            return Refusal(code: "unknown_product", message: "product '\(claim.vendorProductId)' is not in the dev server's catalog (--products)")
        }
        if claim.store == "test" && !setup.signature.isValid(claim) {
            return Refusal(code: "verification_failed", message: "the verification is not the test store's signature of this transaction")
        }
        return nil
    }

    /// `GET /v1/profiles/{id}`: grants merged with any dev profile, with a strong ETag.
    func profile(_ id: String, _ request: HTTPRequest) async throws -> HTTPResponse {
        guard let profile = try await profileBody(id) else { return Reply.error(404, code: "not_found", "no profile '\(id)'") }
        let body = JSONValue.object([("profile", profile)]).encoded
        return serve(body, etag: ServableBundle.etag(of: body), request)
    }

    func profileBody(_ id: String) async throws -> JSONValue? {
        try await setup.store.profileBody(id, devProfile: await state.profile(id), now: Self.now())
    }

    /// `GET /v1/experiments/{placement_id}/results`.
    func results(_ placementId: String) async throws -> HTTPResponse {
        guard let experiments = setup.experiments[placementId] else {
            return Reply.error(404, code: "not_found", "the bundle has no placement '\(placementId)'")
        }
        let results = try await setup.store.results(placementId: placementId, experiments: experiments, now: Self.now())
        return Reply.json(results.json)
    }

    static func now() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) }
}
