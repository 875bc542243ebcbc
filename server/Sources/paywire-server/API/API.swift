import Logging
import PaywireModel
import PaywireServing
import PaywireWire
import ServerDomain
import ServerStore

/// What the server was started with, shared by every request.
struct ServerSetup: Sendable {
    /// Placements and onboardings as served: each answer's bytes, made once from the bundle,
    /// and the strong ETag of the authored text (the same in every replica).
    let placements: [String: ServableBundle.Response]
    let onboardings: [String: ServableBundle.Response]
    /// The bundle's placements, read once, for the paywalls the server draws itself: the web
    /// paywall's pages and the dashboard's previews (with or without --stripe-api-key).
    let webCatalog: WebCatalog
    /// The bundle's A/B tests by placement id (what results are computed for).
    let experiments: [String: [Experiment]]
    /// The catalog (`--products`) by vendor product id.
    let products: [String: StoreProduct]
    /// The key the test store signs with (`TestSignature`); nil: the test store is off.
    let testStoreKey: String?
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
    /// Signs the answers that carry access; nil: no --response-signing-key, nothing is signed.
    var responseSigner: ResponseSigner? = nil
    /// How `identify` is proven; nil: the claimed customer is trusted.
    var identity: IdentityTokenVerifier? = nil
    /// The development state (faults, counts, authored profiles); nil without --dev.
    let dev: DevState?
    let store: any Storage
}

/// The backend API of `api/openapi.yaml`: one method per operation, each given its inputs as
/// parameters by the route that reads them (`APIRoutes`), answering with the bytes the model's
/// writers make. The clock, the random source and the logger are the application's.
struct API: Sendable {
    let setup: ServerSetup
    let clock: any ServerClock
    let random: any RandomSource
    let logger: Logger
    /// The replica's rate limits: what the profile door takes new credentials from.
    let limits: RateGates

    /// The same API answering one request: what it logs goes through the request's logger
    /// (Hummingbird's, carrying the request's id), not the application's.
    func serving(_ input: RouteInput) -> API {
        API(setup: setup, clock: clock, random: random, logger: input.logger, limits: limits)
    }

    /// The lock of the routes that name a profile (its credentials), for a request from `address`.
    func profileDoor(from address: String) -> ProfileDoor {
        ProfileDoor(store: setup.store, clock: clock, random: random, mints: limits, address: address)
    }

    /// The profile as the backend knows it now, or nil when it never met it.
    func profile(_ profileId: String) async throws -> BackendProfile? {
        let facts = try await setup.store.profileFacts(profileId)
        return ProfileBuilder.profile(facts, authored: await setup.dev?.profile(profileId), products: setup.products)
    }

    /// The profile an answer carries, written once: as the backend knows it now (empty when it
    /// never met it).
    func answerProfile(_ profileId: String) async throws -> ProfileAnswer {
        (try await profile(profileId) ?? BackendProfile()).answer(now: clock.nowMilliseconds())
    }
}
