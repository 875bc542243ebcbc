import Foundation
import PaywireAPI
import PaywireModel

/// What the server was started with, shared by every request.
struct ServerSetup: Sendable {
    /// A placement or onboarding as served: the spec's response, decoded once from the bundle,
    /// and the strong ETag of the authored text (the same in every replica).
    struct Served: Sendable {
        let response: Components.Schemas.PlacementResponse
        let etag: String
    }

    let placements: [String: Served]
    let onboardings: [String: Served]
    /// The bundle's A/B tests by placement id (what results are computed for).
    let experiments: [String: [Experiment]]
    /// The catalog (`--products`) by vendor product id.
    let products: [String: StoreProduct]
    /// The test store's signature check; nil: the test store is off.
    let testStore: TestStoreSignature?
    /// Signs promotional and win-back offers; nil: no offer key was configured.
    let offers: OfferSigner?
    let trustHostStores: Bool
    /// How App Store signed data is checked: chain, markers, app and environment.
    let appStore: AppStoreSigned
    /// Apple's refundPreference code the answers to CONSUMPTION_REQUEST carry.
    let refundPreference: Int
    /// The Play Developer API, asked after every RTDN; nil: no service account was given.
    let playAPI: PlayDeveloperAPI?
    /// Stripe webhook signatures' check; nil: no --stripe-webhook-secret, the route is off.
    var stripe: StripeSignature? = nil
    /// Stripe price id -> vendor product id (the catalog's stripe_price_id).
    var stripePrices: [String: String] = [:]
    /// How long a redemption link redeems (ms), and where it points.
    var redemptionTTLMillis = 7 * 24 * 3600 * 1000
    var redemptionLinkBase = "paywire://redeem"
    /// What a restore or an identity does with a purchase another profile holds.
    var transferPolicy = TransferPolicy.transfer
    /// The development state (faults, counts, authored profiles); nil without --dev.
    let dev: DevState?
    let store: any Storage

    static func now() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// Decodes the bundle's ready responses into the spec's model, once.
    static func served(_ responses: [String: ServableBundle.Response]) throws -> [String: Served] {
        let decoder = WireJSON.decoder()
        var served: [String: Served] = [:]
        for (id, response) in responses {
            served[id] = Served(response: try decoder.decode(Components.Schemas.PlacementResponse.self, from: Data(response.body)),
                                etag: response.etag)
        }
        return served
    }
}

/// The backend API of `api/openapi.yaml`: the generated server decodes each request into its
/// operation's input and encodes the output; these methods decide. A body's exact text, where
/// it matters, is `RawBody.current`.
struct API: APIProtocol {
    let setup: ServerSetup

    /// The profile as the backend knows it now, or nil when it never met it.
    func profile(_ profileId: String) async throws -> BackendProfile? {
        let facts = try await setup.store.profileFacts(profileId)
        return ProfileBuilder.profile(facts, authored: await setup.dev?.profile(profileId), products: setup.products)
    }

    /// The profile an answer carries: as the backend knows it now (empty when it never met it).
    func answerProfile(_ profileId: String) async throws -> Components.Schemas.Profile {
        try (try await profile(profileId) ?? BackendProfile()).wire(now: ServerSetup.now())
    }

    /// A 400 body.
    static func invalid(_ message: String, code: String = "invalid_request") -> Components.Responses.BadRequest {
        .init(body: .json(ErrorDocument(code, message)))
    }
}
