import PaywireModel
import PaywireWire

/// One Paywire client, the state behind one `paywire_client_t`: the composition root. It
/// builds the parts from the config and runs each call through the method table. What comes
/// back later (timers, host answers, HTTP answers, store outcomes) goes straight to the reply
/// the asking part handed over; the client routes nothing. It holds no domain state of its own.
///
/// Not thread-safe by itself: the boundary gives each client one owner (a lock around every
/// call), so the parts run one call at a time.
public final class Client {
    let log: Log
    let calls: Calls
    let timers: Timers
    /// Held for `tearDown`, which drops its alarms.
    let accessClock: AccessClock
    let broker: HostRequestBroker
    let backpressure: Backpressure
    let store: StoreGateway
    /// Nil with no transport configured: the bundle is the only source.
    let backend: Backend?
    let profiles: ProfileStore
    let server: PlacementServer
    /// Checks a bundle `set_fallback` installs, with `response_verification`.
    let documents: DocumentVerifier?
    let loader: PlacementLoader
    /// `get_presentation`: whether to present a placement's paywall now.
    let presenter: Presenter
    /// `set_debug_overrides`: variations a tester forces.
    let overrides: DebugOverrides
    let profileSync: ProfileSync
    /// `redeem_web_purchase`: web purchases' links redeemed into the profile.
    let webRedemptions: WebRedemptions
    let products: PaywallProducts
    let paywallViews: PaywallViews
    let onboardingViews: OnboardingViews
    let outbox: Outbox
    let purchases: Purchases
    private let wrapper: (name: String, version: String)?
    /// For `set_fallback {path}`.
    let files: FileSystem?
    /// Held for `releaseFiles`, which closes the outbox's files and then gives up the `storage_dir` lock.
    let storage: Storage
    let outboxStore: OutboxStore

    /// Creates a client from a checked config. Throws when the store, the storage directory,
    /// the transport or the fallback bundle cannot be used: failing loudly at start beats
    /// serving nothing later. `httpTransport` carries requests for `transport {type: http}`;
    /// a config asking for it without one is refused. `files` reads `fallback.path` and opens
    /// `storage_dir` (a config naming either without it is refused). `openOutbox` opens the
    /// durable queue under `storage_dir`; without it (or without `storage_dir`) the queue is in
    /// memory. `clock` and `random` are the system's (the boundary's adapters): the core reads
    /// no clock and no generator of its own. `signatures` checks the backend's signatures
    /// (`response_verification`); a config that asks for them without one is refused.
    public init(config: ClientConfig, sink: EventSink, scheduler: TimerScheduler?, clock: Clock, random: RandomSource,
                completions: CallCompletionSink? = nil, httpTransport: HTTPTransport? = nil,
                files: FileSystem? = nil, openOutbox: OutboxStoreOpener? = nil, signatures: SignatureVerifier? = nil) throws(WireError) {
        let runtime = try Runtime(config: config, sink: sink, scheduler: scheduler, completions: completions,
                                  httpTransport: httpTransport, files: files, clock: clock, random: random, signatures: signatures)
        (log, calls, timers, broker, store, backend) = (runtime.log, runtime.calls, runtime.timers, runtime.broker, runtime.store, runtime.backend)
        backpressure = runtime.backpressure
        accessClock = runtime.accessClock
        var bundle: FallbackBundle?
        var bundleVerification: Verification?
        if let source = config.fallback {
            (bundle, bundleVerification) = try FallbackBundle.load(source, files: files, documents: runtime.documents, log: runtime.log)
        }
        documents = runtime.documents
        let served = ServedPaywalls()
        // Offline access stands in for a backend that does not answer: nothing to do without one.
        let productAccess = backend.map { _ in ProductAccessMap(storage: runtime.storage, log: runtime.log) }
        profiles = try ProfileStore(config: config, storage: runtime.storage, sink: sink, clock: runtime.clock, random: random,
                                    accessClock: runtime.accessClock, log: log, observer: served, fetch: backend.map(ProfileFetch.init),
                                    offline: productAccess.map { OfflineAccess(store: runtime.store, map: $0, log: runtime.log) },
                                    verifier: backend?.verifier)
        // First of all events: the state a host attaching now starts from.
        profiles.emitSnapshot()
        overrides = DebugOverrides(enabled: config.debug)
        server = PlacementServer(bundle: bundle, verification: bundleVerification, served: served, clock: runtime.clock, productAccess: productAccess,
                                 chooser: Chooser(profiles: profiles, clock: runtime.clock, overrides: overrides, platform: config.platform,
                                                  appVersion: config.appVersion, installedAt: config.installedAt))
        let presentations = PresentationLog(storage: runtime.storage)
        var opened: OutboxStore = MemoryOutboxStore(installId: random.uuidV4())
        if let directory = config.storageDir, let openOutbox { opened = try openOutbox(directory) }
        let outboxStore = opened
        let ledger = PurchaseLedger(profiles: profiles, store: store, timers: timers, log: log,
                                    acknowledgeAfter: config.acknowledgeAfterMilliseconds)
        outbox = Outbox(store: outboxStore, config: config.analytics, backend: backend, profiles: profiles,
                        source: AnalyticsRecord.Source(installId: outboxStore.installId, sessionId: random.uuidV4(), platform: config.platform,
                                                       appVersion: config.appVersion, wrapper: config.wrapper),
                        purchaseAnswers: ledger, timers: timers, calls: calls, log: log, clock: runtime.clock, random: random)
        let catalog = ProductCatalog(store: store)
        purchases = Purchases(profiles: profiles, ledger: ledger, outbox: outbox, store: store, backend: backend, calls: calls,
                              log: log, clock: runtime.clock, random: random, attributions: PurchaseAttributions(storage: runtime.storage),
                              catalog: catalog, observerMode: config.observerMode)
        paywallViews = PaywallViews(environment: PaywallViewMachine.Environment(config: config, store: store), store: store,
                                    broker: broker, timers: timers, profiles: profiles, sink: sink, clock: runtime.clock,
                                    analytics: outbox, purchases: purchases, catalog: catalog, presentations: presentations, log: log)
        presenter = Presenter(profiles: profiles, presentations: presentations, exposures: outbox)
        loader = PlacementLoader(server: server, cache: PlacementCache(storage: runtime.storage, documents: runtime.documents),
                                 backend: backend, profiles: profiles, timers: timers, calls: calls, log: log, clock: runtime.clock,
                                 defaultLocale: config.locale, documents: runtime.documents)
        profileSync = ProfileSync(backend: backend, profiles: profiles, timers: timers, calls: calls, log: log)
        webRedemptions = WebRedemptions(backend: backend, profiles: profiles, timers: timers, calls: calls, log: log)
        products = PaywallProducts(store: store, calls: calls, log: log, catalog: catalog)
        onboardingViews = OnboardingViews(answers: OnboardingAnswers(storage: runtime.storage), profiles: profiles, paywallViews: paywallViews,
                                          loader: loader, sink: sink, analytics: outbox)
        wrapper = config.wrapper
        storage = runtime.storage
        self.files = files
        self.outboxStore = outboxStore
        for key in config.unknownKeys {
            log(.warn, "unknown config key '\(key)' ignored", details: [("field", .string(key))])
        }
        if profiles.identifiedAtStart {
            do throws(WireError) {
                try outbox.keepProfileRecord(.identity, profile: profiles.current, identityToken: config.identityToken)
            } catch {
                log(.error, "could not keep the identity record for the backend: \(error.message)")
            }
        }
        outbox.resume()
        profiles.settleDeviceGrants()
        if config.refreshProfileOnStart { profiles.refreshInBackground(reason: "start") }
        profiles.askStoreForAccess(reason: "start")
    }

    /// Runs one method with nothing left pending (unit tests): a method that would wait is
    /// refused with `requires_async` or fails.
    public func call(method: String, params: [UInt8]?) -> CallResponse {
        switch call(method: method, params: params, mode: .sync) {
        case .done(let response): return response
        case .pending: return .failure(WireError(.internal, "a synchronous call was left pending"))
        }
    }

    /// Runs one method. It may answer `.pending(token)` and complete later through
    /// `completions`: in `.async` mode whenever it waits; in `.sync` mode only when no answer
    /// from the host is needed (the caller blocks, so the host could never answer).
    public func call(method: String, params: [UInt8]?, mode: CallMode) -> CallOutcome {
        call(MethodName(method), params: params, mode: mode)
    }

    /// Runs one method already resolved by name (`MethodName`); as `call(method:params:mode:)`.
    @_optimize(speed) public func call(_ method: MethodName, params: [UInt8]?, mode: CallMode) -> CallOutcome {
        guard let entry = method.entry else {
            return .done(.failure(WireError(.unknownMethod, "unknown method '\(method.name)'",
                                            details: JSONObject([("method", .string(method.name))]))))
        }
        if entry.feedsScreen, let refusal = backpressure.refusal(of: entry.name) { return .done(.failure(refusal)) }
        return calls.run(mode) {
            do throws(WireError) {
                if let fastPath = entry.fastPath, let params, let outcome = try fastPath(self, params) { return outcome }
                return try entry.run(self, try Client.fields(params))
            } catch {
                return .done(.failure(error))
            }
        }
    }

    /// The params object; absent params are `{}`.
    private static func fields(_ params: [UInt8]?) throws(WireError) -> Fields {
        guard let params else { return Fields(JSONObject()) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(params)
        } catch {
            throw WireError(.decodingFailed, "params are not valid JSON: \(error.reason) at byte \(error.offset)",
                            details: JSONObject([("offset", .number(JSONNumber(error.offset)))]))
        }
        return Fields(try Fields(value, path: "params").object)
    }

    /// `get_sdk_version`.
    func sdkVersion() -> CallResponse {
        let wrapper = self.wrapper
        return .success { writer in
            writer.object { writer in
                writer.member("version", PaywireVersion.library)
                writer.member("abi_version", Int(PaywireVersion.abi))
                writer.member("wire_version", PaywireVersion.wire)
                writer.member("schema_sha256", SchemaFingerprint.sha256)
                writer.member("schema_version", SchemaFingerprint.version)
                if let wrapper {
                    writer.key("wrapper")
                    writer.object { writer in
                        writer.member("name", wrapper.name)
                        writer.member("version", wrapper.version)
                    }
                }
            }
        }
    }

    /// An event handler was set: it hears the current profile first. Called by the boundary
    /// under the client's lock.
    public func eventHandlerAttached() { profiles.emitSnapshot() }

    // MARK: - What comes back later

    /// Runs the work a timer was set for (the part that set it runs). Called by the boundary
    /// under the client's lock.
    public func timerFired(_ token: UInt64) { timers.fire(token) }

    /// The built-in HTTP client's answer to request `token`, handed to the part that sent it.
    /// Called by the boundary under the client's lock; an unknown token (already answered) is
    /// ignored.
    public func httpFinished(token: UInt64, outcome: HTTPOutcome) { backend?.builtInFinished(token: token, outcome) }
}
