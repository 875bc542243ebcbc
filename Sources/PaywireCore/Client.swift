/// One Paywire client: the state behind one `paywire_client_t`.
///
/// Not thread-safe by itself: the boundary gives each client one owner (a lock around every
/// call), so methods here run one at a time and may mutate freely.
public final class Client {
    let sink: EventSink
    let storage: Storage
    let store: StoreKind
    let clock: Clock
    /// Runs timers (test-store delays, host deadlines, retries); nil means timers never fire,
    /// which only unit tests use.
    let scheduler: TimerScheduler?
    /// Where answers of pending calls go; nil where nothing may be pending (unit tests).
    let completions: CallCompletionSink?
    /// How the call in progress was made: what it may wait for depends on it.
    var callMode: CallMode = .sync
    var nextCallToken: UInt64 = 1
    var timers: [UInt64: TimerWork] = [:]
    var nextTimerToken: UInt64 = 1
    var hostRequests = HostRequests()
    let hostRequestTimeout: Int
    let productsRetryDelay: Int
    let observerMode: Bool
    let platform: String?
    let appVersion: String?
    let installedAt: Int?
    let wrapper: (name: String, version: String)?
    var logLevel: LogLevel
    var locale: String?
    var profile: Profile
    var bundle: FallbackBundle?
    /// Served paywalls, encoded, keyed by placement and request locale. A served paywall is
    /// immutable: encode once, hand out the bytes.
    var servedPaywalls: [PaywallCacheKey: ServedPaywall] = [:]
    var views = ViewRegistry()
    /// Placements fetched from the backend (memory and disk).
    let placementCache: PlacementCache
    /// Backend requests in flight, by placement: concurrent calls share one.
    var placementFetches: [PlacementKey: PlacementFetch] = [:]
    /// The profile request in flight and the `get_profile` calls waiting for it.
    var profileFetch: ProfileFetch?
    /// The ETag of the profile last fetched, for revalidation.
    var profileETag: (profileId: String, etag: String)?
    /// Where remote content comes from and who carries the requests; nil for bundle only.
    let remote: RemoteTransport?
    /// Built-in HTTP requests in flight, by transport token.
    var httpExchanges: [UInt64: BackendRequest] = [:]
    var nextHTTPToken: UInt64 = 1
    /// `get_paywall_products` calls waiting for the host's store, by call token.
    var pendingProductCalls: [UInt64: (paywall: PaywallReference, waitForValidation: Bool)] = [:]
    let onboardingAnswers: OnboardingAnswers

    /// Creates a client from a checked config. Throws when the fallback bundle or the storage
    /// directory cannot be used: failing loudly at start beats serving nothing later.
    /// `httpTransport` carries requests for `transport {type: http}`; a config asking for it
    /// without one is refused.
    public init(config: ClientConfig, sink: EventSink, scheduler: TimerScheduler?,
                completions: CallCompletionSink? = nil, httpTransport: HTTPTransport? = nil) throws(WireError) {
        self.sink = sink
        self.scheduler = scheduler
        self.completions = completions
        hostRequestTimeout = config.hostRequestTimeoutMilliseconds
        productsRetryDelay = config.productsRetryDelayMilliseconds
        logLevel = config.logLevel
        locale = config.locale
        observerMode = config.observerMode
        platform = config.platform
        appVersion = config.appVersion
        installedAt = config.installedAt
        if let name = config.wrapperName, let version = config.wrapperVersion {
            wrapper = (name, version)
        } else {
            wrapper = nil
        }
        store = try ClientConfig.makeStore(config.storeFields)
        if case .test(let testStore) = store, let fixedNow = testStore.fixedNow {
            clock = FixedClock(milliseconds: fixedNow)
        } else {
            clock = SystemClock()
        }
        if let directory = config.storageDir {
            storage = try DirectoryStorage(directory: directory)
        } else {
            storage = MemoryStorage()
        }
        onboardingAnswers = OnboardingAnswers(storage: storage)
        placementCache = PlacementCache(storage: storage)
        remote = try RemoteTransport(config.transport, builtIn: httpTransport)
        profile = Profile(profileId: "", customerUserId: nil)
        if let source = config.fallback {
            bundle = try Client.loadBundle(source, field: "fallback")
        }
        profile = try resolveStartingProfile(config)
        for key in config.unknownKeys {
            log(.warn, "unknown config key '\(key)' ignored", details: [("field", .string(key))])
        }
    }

    /// Releases what the client holds outside memory: the ownership lock of its `storage_dir`,
    /// so another client may take the directory as soon as this returns. Called once the
    /// boundary has stopped the client (no call runs after it); later writes fail.
    public func close() {
        storage.close()
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
        guard let known = Client.methods[method] else {
            return .done(.failure(WireError(.unknownMethod, "unknown method '\(method)'",
                                            details: JSONObject([("method", .string(method))]))))
        }
        callMode = mode
        defer { callMode = .sync }
        do throws(WireError) {
            // A bundle of megabytes is indexed where it sits in the params text, not parsed
            // into a tree first; any other form of params takes the general path below.
            if known == .set_fallback, let params, let inline = try FallbackBundle.loadInline(params: params) {
                return .done(installFallback(inline))
            }
            let fields: Fields
            if let params {
                let value: JSONValue
                do {
                    value = try JSONParser.parse(params)
                } catch {
                    throw WireError(.decodingFailed, "params are not valid JSON: \(error.reason) at byte \(error.offset)",
                                    details: JSONObject([("offset", .number(JSONNumber(error.offset)))]))
                }
                fields = try Fields(value, path: "params")
            } else {
                fields = Fields(JSONObject())
            }
            return try dispatch(known, Fields(fields.object))
        } catch {
            return .done(.failure(error))
        }
    }

    /// Promises an answer later. A wait on the host is refused in a synchronous call, where a
    /// single-threaded host could never answer; a wait on the core's own work (the built-in
    /// HTTP client, its time budget) is not, and `waitLimit` bounds it.
    func deferResponse(_ method: String, waitsOnHost: Bool, waitLimit: Int) throws(WireError) -> (token: UInt64, outcome: CallOutcome) {
        guard completions != nil, callMode == .async || !waitsOnHost else {
            throw WireError(.requiresAsync, "\(method) waits for the host here: call it with paywire_client_call_async",
                            details: JSONObject([("method", .string(method))]))
        }
        defer { nextCallToken += 1 }
        return (nextCallToken, .pending(token: nextCallToken, waitLimitMilliseconds: waitLimit))
    }

    /// The methods of this version; one hash lookup per call finds the handler.
    private enum Method: String, CaseIterable {
        case get_sdk_version, get_log_level, set_log_level, set_fallback, get_paywall,
             get_paywall_products, get_profile, identify, logout, log_show_paywall, host_respond,
             create_paywall_view, get_onboarding, create_onboarding_view, onboarding_view_ingest,
             get_onboarding_state, present_paywall_view, get_paywall_for_default_audience, update_profile, dismiss_paywall_view, paywall_view_select_product,
             paywall_view_make_purchase, paywall_view_restore, paywall_view_perform_action,
             paywall_view_open_web_payment, paywall_view_submit_promo_code, paywall_view_report_rendering_failure,
             paywall_view_get_configuration
    }

    private static let methods: [String: Method] = Dictionary(uniqueKeysWithValues: Method.allCases.map { ($0.rawValue, $0) })

    private func dispatch(_ method: Method, _ params: Fields) throws(WireError) -> CallOutcome {
        switch method {
        case .get_sdk_version: return .done(try getSDKVersion(params))
        case .get_log_level: return .done(try getLogLevel(params))
        case .set_log_level: return .done(try setLogLevel(params))
        case .set_fallback: return .done(try setFallback(params))
        case .get_paywall: return try getPaywall(params)
        case .get_paywall_for_default_audience: return try getPaywall(params, defaultAudienceOnly: true)
        case .update_profile: return .done(try updateProfile(params))
        case .get_paywall_products: return try getPaywallProducts(params)
        case .get_profile: return try getProfile(params)
        case .identify: return .done(try identify(params))
        case .logout: return .done(try logout(params))
        case .log_show_paywall: return .done(try logShowPaywall(params))
        case .host_respond: return .done(try hostRespond(params))
        case .create_paywall_view: return .done(try createPaywallView(params))
        case .get_onboarding: return try getOnboarding(params)
        case .create_onboarding_view: return .done(try createOnboardingView(params))
        case .onboarding_view_ingest: return .done(try onboardingViewIngest(params))
        case .get_onboarding_state: return .done(try getOnboardingState(params))
        case .present_paywall_view: return .done(try presentPaywallView(params))
        case .dismiss_paywall_view: return .done(try dismissPaywallView(params))
        case .paywall_view_select_product: return .done(try paywallViewSelectProduct(params))
        case .paywall_view_make_purchase: return .done(try paywallViewMakePurchase(params))
        case .paywall_view_restore: return .done(try paywallViewRestore(params))
        case .paywall_view_perform_action: return .done(try paywallViewPerformAction(params))
        case .paywall_view_open_web_payment: return .done(try paywallViewOpenWebPayment(params))
        case .paywall_view_submit_promo_code: return .done(try paywallViewSubmitPromoCode(params))
        case .paywall_view_report_rendering_failure: return .done(try paywallViewReportRenderingFailure(params))
        case .paywall_view_get_configuration: return .done(try paywallViewGetConfiguration(params))
        }
    }

    // MARK: events

    func log(_ level: LogLevel, _ message: String, details: [(key: String, value: JSONValue)] = []) {
        guard level <= logLevel else { return }
        sink.emit(Event("log") { writer in
            writer.member("level", level.rawValue)
            writer.member("message", message)
            writer.member("details", .object(JSONObject(details)))
        })
    }

    func emitProfileChanged() {
        let profile = self.profile
        let now = clock.nowMilliseconds()
        sink.emit(Event("did_load_latest_profile") { writer in
            writer.key("profile")
            profile.write(to: &writer, now: now)
        })
    }
}

/// What a call produced: its envelope now, or a promise of one.
public enum CallOutcome: Sendable {
    case done(CallResponse)
    /// The answer comes later through `CallCompletionSink.complete(token:response:)`, within
    /// `waitLimitMilliseconds` (a synchronous caller stops waiting then).
    case pending(token: UInt64, waitLimitMilliseconds: Int)
}

/// How a call was made: `paywire_client_call` (the caller blocks) or `paywire_client_call_async`.
public enum CallMode: Sendable {
    case sync
    case async
}

/// Where the answers of pending calls go. Called while the client's lock is held.
public protocol CallCompletionSink: AnyObject, Sendable {
    func complete(token: UInt64, response: CallResponse)
}

/// How `get_paywall_products` treats intro-offer eligibility the store has not settled.
enum ProductsFetchPolicy: String, CaseIterable, Sendable {
    /// Answer at once; unsettled eligibility is `unknown`.
    case default_policy = "default"
    /// Wait for the store to validate the receipt, so eligibility is settled.
    case wait_for_receipt_validation
}

/// Which served paywall a request maps to.
struct PaywallCacheKey: Hashable {
    let placementId: String
    let requestLocale: String?
    let defaultAudienceOnly: Bool
    /// Served from a fetched copy rather than the bundle.
    var remote = false
}

/// A served paywall, encoded once: alone (for events that carry it) and as a success envelope.
struct ServedPaywall {
    let paywall: [UInt8]
    let envelope: [UInt8]
    /// When the choice may change by itself (an access level expires, the install age reaches
    /// another day), in ms; `Int.max` when nothing time-dependent exists.
    let validUntil: Int
    /// For a paywall served from a fetched copy: which copy (fetched at, created at).
    var fetchedCopy: (Int, Int)? = nil

    func isCurrent(now: () -> Int, fetchedCopy copy: (Int, Int)? = nil) -> Bool {
        if let copy, let mine = fetchedCopy, mine != copy { return false }
        return validUntil == .max || now() < validUntil
    }
}

// MARK: - Methods

extension Client {
    private func getSDKVersion(_ params: Fields) throws(WireError) -> CallResponse {
        .success { writer in
            writer.object { writer in
                writer.member("version", PaywireVersion.library)
                writer.member("abi_version", Int(PaywireVersion.abi))
                writer.member("wire_version", PaywireVersion.wire)
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

    private func getLogLevel(_ params: Fields) throws(WireError) -> CallResponse {
        .success { writer in writer.string(logLevel.rawValue) }
    }

    private func setLogLevel(_ params: Fields) throws(WireError) -> CallResponse {
        guard let level = try params.optionalEnum("log_level", LogLevel.self) else {
            throw WireError.wrongParam("log_level", "is required")
        }
        logLevel = level
        return .success { writer in writer.null() }
    }

    private func setFallback(_ params: Fields) throws(WireError) -> CallResponse {
        installFallback(try Client.loadBundle(try ClientConfig.fallbackSource(params), field: ""))
    }

    private func installFallback(_ loaded: FallbackBundle) -> CallResponse {
        bundle = loaded
        servedPaywalls.removeAll()
        return .success { writer in
            writer.object { writer in
                writer.member("format_version", FallbackBundle.formatVersion)
                writer.member("response_created_at", loaded.responseCreatedAt)
                writer.member("placement_count", loaded.paywalls.ids.count)
                writer.member("onboarding_count", loaded.onboardings.ids.count)
            }
        }
    }

    private func getPaywall(_ params: Fields, defaultAudienceOnly: Bool = false) throws(WireError) -> CallOutcome {
        let request = try PlacementRequest(params)
        warnIfClamped(request)
        if remote != nil {
            return try getRemotePlacement(request, kind: .paywall, method: defaultAudienceOnly ? "get_paywall_for_default_audience" : "get_paywall",
                                          defaultAudienceOnly: defaultAudienceOnly)
        }
        return .done(CallResponse(status: .ok, envelope: try servePaywall(request.placementId, locale: request.locale ?? locale,
                                                                          defaultAudienceOnly: defaultAudienceOnly).envelope))
    }

    /// Until when a choice made now stays right: the next access-level expiry, and the next
    /// install-age day boundary.
    func choiceValidUntil() -> Int {
        let now = clock.nowMilliseconds()
        var until = Int.max
        for (_, grant) in profile.accessLevels {
            if let expiry = grant.expiresAt, expiry > now { until = min(until, expiry) }
        }
        if let installedAt, now >= installedAt {
            until = min(until, installedAt + ((now - installedAt) / 86_400_000 + 1) * 86_400_000)
        }
        return until
    }

    /// What audience rules are evaluated against, for a request in `locale`.
    func audienceContext(locale requestLocale: String?) -> AudienceContext {
        let now = clock.nowMilliseconds()
        return AudienceContext(
            customAttributes: profile.customAttributes,
            language: LocaleMatch.language(of: requestLocale),
            platform: platform,
            appVersion: appVersion,
            activeAccessLevels: profile.activeAccessLevels(now: now),
            installAgeDays: installedAt.map { max(0, (now - $0) / 86_400_000) })
    }

    /// Chooses in a placement for this profile, keeping any cross-placement group it assigns.
    func select<V>(_ placement: Placement<V>, locale requestLocale: String?, defaultAudienceOnly: Bool,
                   responseCreatedAt: Int? = nil) throws(WireError) -> Selection<V> {
        let selection = try Selection(placement: placement, profileId: profile.profileId, locale: requestLocale,
                                      responseCreatedAt: responseCreatedAt ?? bundle?.responseCreatedAt ?? 0,
                                      context: audienceContext(locale: requestLocale),
                                      defaultAudienceOnly: defaultAudienceOnly,
                                      crossPlacementAssignments: profile.crossPlacementAssignments)
        if let assignment = selection.newCrossPlacementAssignment {
            // Kept quietly (no profile event: nothing a host shows changed), and persisted so the
            // group survives a restart.
            var next = profile
            next.crossPlacementAssignments[assignment.testId] = assignment.group
            try storage.write(Profile.storageKey, next.record)
            profile = next
            servedPaywalls.removeAll()
        }
        return selection
    }

    /// Sets or (with null) removes custom attributes; audience rules read them.
    private func updateProfile(_ params: Fields) throws(WireError) -> CallResponse {
        let attributes = try params.object("custom_attributes")
        var next = profile
        for member in attributes.object.members {
            let key = member.key
            let path = attributes.fieldPath(key)
            guard !key.isEmpty, key.utf8.count <= 64,
                  key.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }) else {
                throw WireError.wrongParam(path, "a custom attribute key is 1 to 64 letters, digits, '_', '-' or '.'")
            }
            let valid: Bool
            switch member.value {
            case .null:
                next.customAttributes = JSONObject(next.customAttributes.members.filter { $0.key != key })
                continue
            case .string(let text): valid = text.utf8.count <= 256
            case .bool: valid = true
            case .number(let number): valid = number.doubleValue != nil
            case .array, .object: valid = false
            }
            guard valid else {
                throw WireError.wrongParam(path, "expected a string of at most 256 bytes, a finite number, a boolean, or null to remove it")
            }
            next.customAttributes.set(key, member.value)
        }
        guard next.customAttributes.members.count <= 100 else {
            throw WireError.wrongParam("custom_attributes", "a profile holds at most 100 custom attributes")
        }
        if next != profile { try switchProfile(to: next) }
        return .success { writer in writer.null() }
    }

    func warnIfClamped(_ request: PlacementRequest) { warnIfClamped(request.clampedLoadTimeout) }

    func warnIfClamped(_ clampedLoadTimeout: Double?) {
        if let requested = clampedLoadTimeout {
            log(.warn, "load_timeout \(requested) s raised to the minimum of \(PlacementRequest.minimumLoadTimeout) s",
                details: [("field", .string("load_timeout"))])
        }
    }

    /// The paywall `placementId` serves this profile in `locale`, encoded once and then reused.
    func servePaywall(_ placementId: String, locale requestLocale: String?, defaultAudienceOnly: Bool = false) throws(WireError) -> ServedPaywall {
        let key = PaywallCacheKey(placementId: placementId, requestLocale: requestLocale, defaultAudienceOnly: defaultAudienceOnly)
        if let served = servedPaywalls[key], served.isCurrent(now: clock.nowMilliseconds) { return served }
        let placement: Placement<Variation> = try placementFromBundle(placementId, in: { $0.paywalls })
        let paywall = Paywall(selection: try select(placement, locale: requestLocale, defaultAudienceOnly: defaultAudienceOnly))
        var writer = JSONWriter(reservingCapacity: 1024)
        paywall.write(to: &writer)
        let served = ServedPaywall(paywall: writer.bytes, envelope: CallResponse.success(writer.bytes).envelope,
                                   validUntil: choiceValidUntil())
        servedPaywalls[key] = served
        return served
    }

    /// A placement of the bundle's `section`, or `not_found` saying what is missing.
    func placementFromBundle<V>(_ placementId: String, in section: (FallbackBundle) -> PlacementSection<V>) throws(WireError) -> Placement<V> {
        guard let bundle else {
            throw WireError(.notFound, "no source: set a fallback bundle (config.fallback or set_fallback)",
                            details: JSONObject([("placement_id", .string(placementId))]))
        }
        guard let placement = try section(bundle).placement(placementId) else {
            throw WireError(.notFound, "the bundle has no placement '\(placementId)' of this kind",
                            details: JSONObject([("placement_id", .string(placementId))]))
        }
        return placement
    }

    private func getPaywallProducts(_ params: Fields) throws(WireError) -> CallOutcome {
        let paywall = try PaywallReference(try params.object("paywall"))
        let waitForValidation = try params.optionalEnum("fetch_policy", ProductsFetchPolicy.self) == .wait_for_receipt_validation
        switch store {
        case .none: throw WireError(.billingUnavailable, "no billing provider is configured (store.type is none)")
        case .test(let testStore):
            return .done(productsResponse(paywall, found: try testStore.products(paywall.productIds), waitForValidation: waitForValidation))
        case .host:
            let (token, outcome) = try deferResponse("get_paywall_products", waitsOnHost: true, waitLimit: hostRequestTimeout)
            pendingProductCalls[token] = (paywall, waitForValidation)
            askHost(.storeFetchProducts, view: nil, callToken: token) { writer in
                writer.key("product_ids")
                writer.array { writer in for id in paywall.productIds { writer.string(id) } }
            }
            return outcome
        }
    }

    /// The products of a paywall as the store described them, in the paywall's order; products
    /// the store does not know are left out and reported by a log event.
    func productsResponse(_ paywall: PaywallReference, found: [StoreProduct], waitForValidation: Bool) -> CallResponse {
        let missing = paywall.productIds.filter { id in !found.contains { $0.vendorProductId == id } }
        if !missing.isEmpty {
            log(.warn, "the store does not know \(missing.count) product(s) of paywall '\(paywall.paywallName)'; they are left out",
                details: [("missing_product_ids", .array(missing.map { .string($0) }))])
        }
        return .success { writer in
            writer.array { writer in
                for id in paywall.productIds {
                    guard let product = found.first(where: { $0.vendorProductId == id }),
                          let index = paywall.productIds.firstIndex(of: id) else { continue }
                    product.write(to: &writer, paywall: paywall, index: index, waitForValidation: waitForValidation)
                }
            }
        }
    }

    private func getProfile(_ params: Fields) throws(WireError) -> CallOutcome {
        let request = try ProfileRequest(params)
        warnIfClamped(request.clampedLoadTimeout)
        if remote != nil, request.fetchFromBackend { return try getRemoteProfile(request) }
        return .done(profileResponse())
    }

    /// The device's profile as a `get_profile` answer.
    func profileResponse() -> CallResponse {
        let profile = self.profile
        let now = clock.nowMilliseconds()
        return .success { writer in profile.write(to: &writer, now: now) }
    }

    private func identify(_ params: Fields) throws(WireError) -> CallResponse {
        let customerUserId = try params.identifier("customer_user_id")
        if let next = Client.identified(profile, as: customerUserId) {
            try switchProfile(to: next)
        }
        return .success { writer in writer.null() }
    }

    private func logout(_ params: Fields) throws(WireError) -> CallResponse {
        try switchProfile(to: Profile(profileId: Profile.newProfileId(), customerUserId: nil))
        return .success { writer in writer.null() }
    }

    private func logShowPaywall(_ params: Fields) throws(WireError) -> CallResponse {
        let paywall = try PaywallReference(try params.object("paywall"))
        log(.info, "paywall shown", details: [
            ("placement_id", .string(paywall.placementId)),
            ("variation_id", .string(paywall.variationId)),
            ("ab_test_name", .string(paywall.abTestName)),
        ])
        return .success { writer in writer.null() }
    }
}

// MARK: - Profile and bundle plumbing

extension Client {
    /// The profile after identifying as `customerUserId`, or nil when nothing changes.
    /// An anonymous profile is claimed by the customer; a different customer gets a new profile.
    static func identified(_ profile: Profile, as customerUserId: String) -> Profile? {
        switch profile.customerUserId {
        case customerUserId?: return nil
        case nil: return Profile(profileId: profile.profileId, customerUserId: customerUserId, email: profile.email)
        case _?: return Profile(profileId: Profile.newProfileId(), customerUserId: customerUserId)
        }
    }

    func switchProfile(to next: Profile) throws(WireError) {
        try storage.write(Profile.storageKey, next.record)
        profile = next
        servedPaywalls.removeAll()
        emitProfileChanged()
    }

    private func resolveStartingProfile(_ config: ClientConfig) throws(WireError) -> Profile {
        let stored = try storage.read(Profile.storageKey).flatMap(Profile.fromRecord)
        var current = stored ?? Profile(profileId: Profile.newProfileId(), customerUserId: nil)
        if let id = config.profileId, id != current.profileId {
            current = Profile(profileId: id, customerUserId: nil)
        }
        if let customer = config.customerUserId, let next = Client.identified(current, as: customer) {
            current = next
        }
        if current != stored { try storage.write(Profile.storageKey, current.record) }
        return current
    }

    private static func loadBundle(_ source: ClientConfig.FallbackSource, field: String) throws(WireError) -> FallbackBundle {
        switch source {
        case .inline(let bytes):
            return try FallbackBundle.load(bytes)
        case .path(let path):
            guard let bytes = try LocalFiles.read(path) else {
                throw WireError(.notFound, "fallback file '\(path)' does not exist")
            }
            guard String(validating: bytes, as: UTF8.self) != nil else {
                throw WireError(.invalidUTF8, "fallback file '\(path)' is not valid UTF-8")
            }
            return try FallbackBundle.load(bytes)
        }
    }
}
