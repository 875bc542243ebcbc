import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import PaywireModel
import PaywireServing
import PaywireWire
import Prometheus
import ServerDomain
import ServerStore
import ServiceLifecycle

/// The composition root: every part built from the configuration, then wired to the router.
struct ServerParts {
    let options: Options
    let setup: ServerSetup
    let logger: Logger
    /// The time and the random bytes every part reads.
    let clock: any ServerClock
    let random: any RandomSource
    /// What the start line says after the address.
    let summary: String
    /// What runs beside the server (the PostgreSQL pool).
    let services: [any Service]
    /// What `/metrics` writes out.
    let registry: PrometheusCollectorRegistry
    /// Checks Play notification pushes' OIDC tokens; nil: that route takes the API key.
    let pushTokens: PushKeyFile?
    /// What the server's connections may take (`--max-connections` and the rest).
    let connections: ConnectionLimits
    /// The web paywall's setup; nil: no --stripe-api-key, its routes are off.
    var web: WebSetup? = nil

    /// Reads the bundle, catalog and development files and opens the store; a file the core
    /// refuses stops the start, naming the file and why.
    static func build(_ options: Options, logger: Logger, clock: any ServerClock, random: any RandomSource) async throws -> ServerParts {
        guard let bundlePath = options.bundlePath else { throw StartProblem("--bundle is required") }
        let bundleBytes = try read(bundlePath, "the bundle")
        let bundle: ServableBundle, webCatalog: WebCatalog, experiments: [String: [Experiment]]
        do {
            bundle = try ServableBundle.load(bundleBytes)
            webCatalog = try WebCatalog(bundle)
            experiments = try Experiment.all(inBundle: bundleBytes)
        } catch {
            throw StartProblem("\(bundlePath): \(error.message)")
        }
        var products: [String: StoreProduct] = [:], stripePrices: [String: String] = [:]
        if let path = options.productsPath {
            let catalog = try read(path, "the products file")
            do {
                for product in try StoreProduct.catalog(catalog) { products[product.vendorProductId] = product }
            } catch {
                throw StartProblem("\(path): \(error.message)")
            }
            do {
                stripePrices = try StripePrices.read(catalog)
            } catch {
                throw StartProblem("\(path): \(error.message)")
            }
        }
        let (store, storeService) = try openStore(options, logger: logger, clock: clock, random: random)
        let appStore: AppStoreSigned
        do {
            appStore = AppStoreSigned(verifier: try JWSVerifier(rootFile: options.appStoreRoot, requireMarkers: !options.appStoreUnmarkedRoots),
                                      bundleId: options.appStoreBundleId, environments: options.appStoreEnvironments)
        } catch {
            throw StartProblem("--app-store-root \(options.appStoreRoot ?? ""): \((error as? SignedProblem)?.message ?? "not a PEM or DER certificate: \(error)")")
        }
        var setup = ServerSetup(
            placements: bundle.placements, onboardings: bundle.onboardings, webCatalog: webCatalog,
            experiments: experiments, products: products,
            testStoreKey: options.signingKey ?? (options.dev ? TestSignature.defaultKey : nil),
            offers: try offerSigner(options), trustHostStores: options.trustHostStores, appStore: appStore,
            refundPreference: options.appStoreRefundPreference,
            playAPI: try playAPI(options, clock: clock),
            dev: options.dev ? DevState(faults: try faults(options), profiles: try profiles(options), random: random) : nil, store: store)
        setup.stripe = options.stripeWebhookSecrets.isEmpty ? nil : StripeSignature(secrets: options.stripeWebhookSecrets)
        setup.stripePrices = stripePrices
        setup.redemptionTTLMillis = options.redemptionTTLSeconds * 1000
        setup.redemptionLinkBase = options.redemptionLinkBase
        setup.transferPolicy = options.transferPolicy
        setup.responseSigner = try responseSigner(options, logger: logger)
        setup.identity = try identityVerifier(options)
        if setup.offers == nil { logger.notice("offer signing is off: no --offer-key") }
        if setup.stripe == nil { logger.notice("Stripe webhooks are off: no --stripe-webhook-secret") }
        if setup.identity == nil {
            logger.warning("identify trusts the customer user id a device claims: no --identity-secret or --identity-jwks")
        }
        if options.apiKeyDigests.isEmpty { logger.warning("the device routes are open to anyone: no --app-key-sha256") }
        if options.rateLimitAddress == nil { logger.notice("requests are not rate-limited per address: no --rate-limit-address") }
        if options.rateLimitDevice == nil { logger.notice("requests are not rate-limited per device: no --rate-limit-device") }
        logger.info("new profile credentials per client address",
                    metadata: ["per_minute": .string(options.newCredentialsLimit.map { String($0) } ?? "unlimited")])
        if options.operatorKeys.isEmpty {
            logger.notice("every operator route answers 401 (results, dashboard, development routes): no --operator-key-sha256")
        } else {
            logger.info("operator keys", metadata: ["ids": .string(options.operatorKeys.map(\.id).joined(separator: ","))])
        }
        let summary = "\(bundle.placements.count) placements, \(bundle.onboardings.count) onboardings, \(products.count) products"
            + (options.dataDirectory.map { ", data in \($0)" } ?? "") + (options.dev ? ", development mode" : "")
        var parts = ServerParts(options: options, setup: setup, logger: logger, clock: clock, random: random, summary: summary,
                                services: storeService.map { [$0] } ?? [], registry: ServerMetrics.bootstrap(),
                                pushTokens: try pushKeyFile(options, logger: logger, clock: clock),
                                connections: try connectionLimits(options, logger: logger))
        parts.web = webSetup(options, stripePrices: stripePrices, logger: logger)
        return parts
    }

    /// The connection limits, from the options and the descriptors this process may open
    /// (its soft limit raised to the hard one first, as far as the system lets it).
    private static func connectionLimits(_ options: Options, logger: Logger) throws -> ConnectionLimits {
        let limits = try ConnectionLimits.make(descriptors: FileDescriptors.raiseLimit(), total: options.maxConnections,
                                               perAddress: options.maxConnectionsPerAddress,
                                               headMillis: options.requestHeadTimeoutMillis, bodyMillis: options.requestBodyTimeoutMillis)
        logger.info("connections", metadata: ["served": "\(limits.total)", "per_address": "\(limits.perAddress)",
                                               "accepted_at_most": "\(limits.acceptCeiling)"])
        return limits
    }

    /// The web paywall's parts: on with --stripe-api-key. The key is never logged.
    private static func webSetup(_ options: Options, stripePrices: [String: String], logger: Logger) -> WebSetup? {
        guard let key = options.stripeAPIKey else {
            logger.notice("the web paywall is off: no --stripe-api-key")
            return nil
        }
        let prices = Dictionary(stripePrices.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        if prices.isEmpty { logger.warning("the web paywall sells nothing: no product of --products has a stripe_price_id") }
        return WebSetup(checkout: StripeCheckoutAPI(key: key, base: options.stripeAPIBase, timeoutMillis: options.stripeAPITimeoutMillis),
                        prices: prices, publicURL: options.publicURL, secureCookies: options.dashboardSessions.secureCookies)
    }

    /// Serves until SIGTERM or SIGINT; requests in flight are answered before it returns.
    func run() async throws {
        let router = Router(context: ServerContext.self)
        let table = RouteTable()
        router.add(middleware: Observe())
        if let dev = setup.dev { router.add(middleware: DevTraffic(state: dev, maxBodyBytes: options.maxBodyBytes)) }
        router.add(middleware: APIErrors(routes: table))
        let limits = RateGates(perAddress: options.rateLimitAddress, perOperatorKey: options.rateLimitOperatorKey,
                               perDevice: options.rateLimitDevice, newCredentialsPerMinute: options.newCredentialsLimit, clock: clock)
        let api = API(setup: setup, clock: clock, random: random, logger: logger, limits: limits)
        let doors = DoorKeeper(appKeys: APIKeys(digests: options.apiKeyDigests), operatorKeys: OperatorKeys(keys: options.operatorKeys),
                               pushTokens: pushTokens, sessions: setup.store, clock: clock,
                               guesses: KeyGuesses(limit: options.operatorKeyGuesses))
        let routes = ServerRoutes(router: router, table: table, doors: doors, audit: AuditTrail(store: setup.store, clock: clock), limits: limits)
        APIRoutes.register(on: routes, api: api, maxBodyBytes: options.maxBodyBytes)
        DashboardRoute.register(on: routes, api: api)
        DashboardLoginRoute.register(on: routes, api: api, settings: options.dashboardSessions)
        DashboardAuditRoute.register(on: routes, api: api)
        DashboardProfileRoute.register(on: routes, api: api)
        DashboardPreviewRoute.register(on: routes, api: api)
        OpsRoutes.register(on: routes, store: setup.store, registry: registry)
        if let dev = setup.dev { DevRoutes.register(on: routes, api: api, dev: dev) }
        if let web { WebPaywallRoute.register(on: routes, api: api, web: web) }
        let summary = summary, host = options.host
        let gate = ConnectionGate(limits: connections)
        var app = Application(
            router: router, server: .guardedHTTP1(maxBodyBytes: options.maxBodyBytes, gate: gate),
            configuration: .init(address: .hostname(host, port: options.resolvedPort),
                                 availableConnectionsDelegate: MaximumAvailableConnections(connections.acceptCeiling, logger: logger)),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                FileHandle.standardOutput.write(Data("listening on http://\(host):\(port) (\(summary))\n".utf8))
            },
            logger: logger)
        let store = setup.store
        app.beforeServerStarts { try await store.migrate() }
        do {
            try await app.runService()
        } catch let error as IOError {
            throw StartProblem.listening(error, host: host, port: options.resolvedPort) ?? error
        }
    }

    private static func read(_ path: String, _ what: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw StartProblem("cannot read \(what) \(path)") }
        return Array(data)
    }

    /// `--database` (postgres://..., sqlite:PATH or PATH) or `--data DIR` (SQLite in
    /// DIR/devserver.sqlite); neither: SQLite in memory (--dev only). PostgreSQL's pool is a
    /// service that runs beside the server.
    private static func openStore(_ options: Options, logger: Logger, clock: any ServerClock,
                                  random: any RandomSource) throws -> (any Storage, (any Service)?) {
        if let database = options.database, database.hasPrefix("postgres") {
            let storage = try PostgresStorage(url: database, poolSize: options.databasePoolSize, logger: logger, clock: clock, random: random)
            return (storage, storage.client)
        }
        var path: String?
        if let directory = options.dataDirectory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            path = (directory as NSString).appendingPathComponent("devserver.sqlite")
        }
        if let database = options.database {
            path = database.hasPrefix("sqlite:") ? String(database.dropFirst("sqlite:".count)) : database
        }
        do {
            return (try SQLiteStorage(path: path, clock: clock), nil)
        } catch {
            throw StartProblem("cannot open the store \(path ?? "in memory"): \(error)")
        }
    }

    private static func offerSigner(_ options: Options) throws -> OfferSigner? {
        guard let path = options.offerKeyPath else {
            return options.dev ? OfferSigner(bundleId: options.offerBundleId, keyId: options.offerKeyId) : nil
        }
        guard let pem = FileManager.default.contents(atPath: path).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw StartProblem("cannot read the offer key \(path)")
        }
        do {
            return try OfferSigner(bundleId: options.offerBundleId, keyId: options.offerKeyId, pem: pem)
        } catch {
            throw StartProblem("\(path) is not a PEM P-256 private key: \(error)")
        }
    }

    /// `--response-signing-key` (each file read once, at start); none: nothing is signed, and the
    /// log says so. Each key is logged by its id and public half, never its private one.
    private static func responseSigner(_ options: Options, logger: Logger) throws -> ResponseSigner? {
        guard !options.responseSigningKeys.isEmpty else {
            logger.warning(
                "response signing is off: no --response-signing-key, answers that carry access are not signed (apps with response_verification enforced refuse them)")
            return nil
        }
        let pems = try options.responseSigningKeys.map { path in
            (path: path, text: String(decoding: try read(path, "the response signing key"), as: UTF8.self))
        }
        var signer: ResponseSigner
        do {
            signer = try ResponseSigner(pems: pems)
        } catch {
            throw StartProblem("--response-signing-key \(error.description)")
        }
        let certificates = try options.signingKeyCertificates.map { path in
            let text = String(decoding: try read(path, "the signing key's certificate"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let certificate = SigningKeyCertificate(text: text) else {
                throw StartProblem("--signing-key-certificate \(path) is not a certificate (paywire-server --certify-signing-key makes one)")
            }
            return (path: path, certificate: certificate)
        }
        do {
            try signer.attach(certificates)
        } catch {
            throw StartProblem("--signing-key-certificate \(error.description)")
        }
        for (index, key) in signer.keys.enumerated() {
            var metadata: Logger.Metadata = ["key_id": .string(key.id), "public_key": .string(key.publicKey)]
            if let certificate = key.certificate {
                metadata["root_id"] = .string(certificate.rootId)
                metadata["expires_at"] = .string(String(certificate.expiresAt))
            }
            logger.notice(index == 0 ? "response signing key (signs)" : "response signing key (signs for apps that trust none before it)",
                          metadata: metadata)
        }
        return signer
    }

    /// `--play-push-jwks` with its audience and service account (Options checks they come together).
    private static func pushKeyFile(_ options: Options, logger: Logger, clock: any ServerClock) throws -> PushKeyFile? {
        guard let path = options.playPushJWKS, let audience = options.playPushAudience,
              let account = options.playPushServiceAccount else { return nil }
        do {
            return try PushKeyFile(path: path, audience: audience, serviceAccount: account, now: clock.nowSeconds()) { read in
                switch read {
                case .success(let keys): logger.notice("--play-push-jwks read again: it changed", metadata: ["keys": .stringConvertible(keys)])
                case .failure(let problem):
                    logger.error("--play-push-jwks changed but is not a JWK set; the keys read before stay", metadata: ["reason": .string(problem.message)])
                }
            }
        } catch {
            throw StartProblem("--play-push-jwks \(path): \(error.message)")
        }
    }

    /// `--identity-secret`, `--identity-jwks` and `--identity-audience` (Options checks that the
    /// audience comes with a key); the JWK set is read once, at start.
    private static func identityVerifier(_ options: Options) throws -> IdentityTokenVerifier? {
        guard let audience = options.identityAudience else { return nil }
        let jwks = try options.identityJWKS.map { try read($0, "the identity JWK set") }
        do {
            return try IdentityTokenVerifier(secrets: options.identitySecrets, jwks: jwks, audience: audience)
        } catch {
            let flag = error.code == "jwks" ? "--identity-jwks \(options.identityJWKS ?? "")" : "--identity-secret"
            throw StartProblem("\(flag): \(error.message)")
        }
    }

    /// `--play-service-account`: the key file read and checked once, at start.
    private static func playAPI(_ options: Options, clock: any ServerClock) throws -> PlayDeveloperAPI? {
        guard let path = options.playServiceAccount else { return nil }
        let json = try read(path, "the service account key")
        do {
            return PlayDeveloperAPI(account: try PlayServiceAccount(json: json), base: options.playAPIBase,
                                    timeoutMillis: options.playAPITimeoutMillis, clock: clock)
        } catch {
            throw StartProblem("--play-service-account \(path): \(error.message)")
        }
    }

    private static func faults(_ options: Options) throws -> Faults {
        do {
            return try Faults(json: Array(try JSONSerialization.data(withJSONObject: options.faults)))
        } catch {
            throw StartProblem("\(error)")
        }
    }

    /// `--profiles FILE`: profile id -> a profile as the spec's `Profile` describes it.
    private static func profiles(_ options: Options) throws -> [String: BackendProfile] {
        guard let path = options.profilesPath else { return [:] }
        guard case .object(let object)? = try? JSONValue(parsing: try read(path, "the profiles file")) else {
            throw StartProblem("\(path) must be a JSON object of profile id -> profile")
        }
        var profiles: [String: BackendProfile] = [:]
        for (id, profile) in object.members {
            do {
                profiles[id] = try BackendProfile.authored(profile)
            } catch {
                throw StartProblem("\(path): profile '\(id)': \(error.description)")
            }
        }
        return profiles
    }
}

/// A configuration or file the server cannot start with.
struct StartProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// The address the server cannot listen on, named with the flags that change it; nil for an
    /// error that is not about the address (it is reported as it is).
    static func listening(_ error: IOError, host: String, port: Int) -> StartProblem? {
        let address = "\(host):\(port)"
        switch error.errnoCode {
        case EADDRINUSE:
            return StartProblem("cannot listen on \(address): the address is in use (another server is listening there): give another port with --port N (--port 0 picks a free one)")
        case EACCES:
            return StartProblem("cannot listen on \(address): this user may not use port \(port) (below 1024 needs privileges): give another with --port N")
        case EADDRNOTAVAIL:
            return StartProblem("cannot listen on \(address): no network interface of this machine has the address \(host): give one with --host ADDR (0.0.0.0: every one)")
        default:
            return nil
        }
    }
}
