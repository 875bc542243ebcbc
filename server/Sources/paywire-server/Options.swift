import Foundation
import PaywireWire
import ServerDomain

/// The configuration, from environment variables (`PAYWIRE_*`) and then flags, which win. Every
/// option has both; `--help` lists them. The development conveniences (fault switches, authored
/// profiles, `/_dev/*`) are refused without `--dev`.
struct Options {
    var dev = false
    var host = "127.0.0.1"
    /// Nil: 0 (a free port) with --dev, else 8080.
    var port: Int?
    var bundlePath: String?
    var productsPath: String?
    var profilesPath: String?
    /// `postgres://user:password@host:port/database`, `sqlite:PATH` or a file path.
    var database: String?
    /// The older way to name an SQLite store: `DIR/devserver.sqlite`.
    var dataDirectory: String?
    /// SHA-256 digests of the accepted app keys (a key in clear is hashed at once): public, they
    /// open the device routes only.
    var apiKeyDigests: [[UInt8]] = []
    /// The operator keys (staff's, secret), each with its id and scopes; given as digests.
    var operatorKeys: [OperatorKey] = []
    var appStoreRoot: String?
    /// The app whose App Store data is taken (required with --app-store-root).
    var appStoreBundleId: String?
    /// Apple's environments taken: Production, and Sandbox for App Review and TestFlight.
    var appStoreEnvironments = ["Production", "Sandbox"]
    /// Chains without Apple's marker extensions are trusted (roots a test or a developer made).
    var appStoreUnmarkedRoots = false
    /// What the answers to CONSUMPTION_REQUEST say the developer prefers (Apple's refundPreference).
    var appStoreRefundPreference = 0
    /// The JWK set Pub/Sub push tokens are checked against (Google's, saved to a file); nil: the
    /// Play route takes the API key like every /v1 route.
    var playPushJWKS: String?
    /// The audience the push subscription puts in its tokens (required with --play-push-jwks).
    var playPushAudience: String?
    /// The service account the push subscription signs as (required with --play-push-jwks).
    var playPushServiceAccount: String?
    /// The service account's JSON key the Play Developer API is asked with; nil: not asked.
    var playServiceAccount: String?
    var playAPIBase = "https://androidpublisher.googleapis.com"
    /// The deadline of each call to the token URI and the Play Developer API.
    var playAPITimeoutMillis = 10_000
    /// The test store's signing key; nil: the test store is off (the dev key with --dev).
    var signingKey: String?
    var offerBundleId = "dev.paywire.app"
    var offerKeyId = "PAYWIRETEST1"
    /// The App Store Connect offer key (a PEM P-256 private key); nil: a key made at start with --dev.
    var offerKeyPath: String?
    var trustHostStores = false
    var maxBodyBytes = 1 << 20
    var databasePoolSize = 8
    var logLevel = "info"
    var logFormat = "json"
    var faults: [String: Any] = [:]
    /// Stripe webhook endpoint secrets (whsec_...); more than one while rotating. Never logged.
    var stripeWebhookSecrets: [String] = []
    /// Stripe's secret API key (sk_...): the web paywall's checkout. Never logged.
    var stripeAPIKey: String?
    /// Stripe's API: `https://api.stripe.com` unless a test names its stand-in.
    var stripeAPIBase = "https://api.stripe.com"
    var stripeAPITimeoutMillis = 10_000
    /// The server's public address (`https://pay.example.com`): where Stripe sends a web
    /// paywall's buyer back. Nil: the address the browser asked (its `Host`).
    var publicURL: String?
    /// How long a web purchase's redemption link redeems.
    var redemptionTTLSeconds = 7 * 24 * 3600
    /// Where redemption links point (the app's deep link or a page that opens it).
    var redemptionLinkBase = "paywire://redeem"
    /// What a restore or an identity does with a purchase another profile holds.
    var transferPolicy = TransferPolicy.transfer
    /// Operators' dashboard sessions: their life, and Secure cookies behind https.
    var dashboardSessions = DashboardLoginRoute.Settings()
    /// How `identify` is proven: HS256 secrets shared with the app's backend (several while one
    /// is rotated out; never logged), a JWK set file of its public keys (RS256, ES256), and the
    /// audience its tokens name. Neither secrets nor a set: the claimed customer is trusted.
    var identitySecrets: [String] = []
    var identityJWKS: String?
    var identityAudience: String?
    /// Requests a second per client address and per operator key; nil: not limited.
    var rateLimitAddress: Int?
    var rateLimitOperatorKey: Int?
    /// Requests a second per device (per profile credential a request carries); nil: not limited.
    var rateLimitDevice: Int?
    /// New profile credentials a client address is handed a minute; nil: as the mode says
    /// (`newCredentialsLimit`), 0: no limit.
    var newCredentialsPerAddress: Int?
    /// Ed25519 private keys (PEM files) that sign the answers carrying access; the first signs.
    /// Empty: nothing is signed. Never logged (only each key's id and public half).
    var responseSigningKeys: [String] = []
    var signingKeyCertificates: [String] = []
    /// Tests: the server's wall clock runs this far from the system's, so a suite runs on another
    /// date (the last day of a month, 29 February). 0 in production.
    var clockOffsetMillis = 0
    /// Connections served at once; nil: as many as the descriptor limit leaves room for
    /// (`ConnectionLimits.make`).
    var maxConnections: Int?
    /// Connections served at once from one client address; 0: no such limit.
    var maxConnectionsPerAddress = ConnectionLimits.defaultPerAddress
    /// How long a request's head and body may take to arrive.
    var requestHeadTimeoutMillis = ConnectionLimits.defaultHeadMillis
    var requestBodyTimeoutMillis = ConnectionLimits.defaultBodyMillis
    /// Wrong operator keys one client address may send in 15 minutes, on any door, before it waits.
    var operatorKeyGuesses = KeyGuesses.defaultLimit

    /// New credentials a minute per client address, nil for none: `--new-credentials-per-address`
    /// (0: none), else 60, or none with `--dev` (demos and tests make hundreds of profiles from
    /// one address).
    var newCredentialsLimit: Int? {
        guard let given = newCredentialsPerAddress else { return dev ? nil : RateGates.defaultNewCredentialsPerMinute }
        return given == 0 ? nil : given
    }

    /// Which flags only --dev allows (checked after every flag is read, whatever the order).
    private var devOnlyGiven: [String] = []

    /// One option: its flag, its environment variable, whether it takes a value, what it sets.
    struct Spec: Sendable {
        let flag: String
        let value: String?
        let help: String
        let apply: @Sendable (inout Options, String) throws(OptionProblem) -> Void
        var environment: String {
            "PAYWIRE_" + flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
        }
    }

    var resolvedPort: Int { port ?? (dev ? 0 : 8080) }

    /// Reads `environment` first, then `arguments`.
    static func parse(_ arguments: [String], environment: [String: String]) throws(OptionProblem) -> Options {
        var options = Options()
        for spec in specs {
            guard let text = environment[spec.environment] else { continue }
            if spec.value == nil {
                guard let on = ["1": true, "true": true, "yes": true, "0": false, "false": false, "no": false][text.lowercased()] else {
                    throw OptionProblem("\(spec.environment) must be true or false")
                }
                if on { try spec.apply(&options, "") }
            } else {
                try spec.apply(&options, text)
            }
        }
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument == "--help" || argument == "-h" { throw OptionProblem.help }
            let (flag, inline) = Flags.split(argument)
            guard let spec = specs.first(where: { $0.flag == flag }) else { throw OptionProblem("unknown argument '\(argument)'") }
            if spec.value == nil {
                guard inline == nil else { throw OptionProblem("\(flag) takes no value") }
                try spec.apply(&options, "")
            } else {
                guard let value = inline ?? iterator.next() else { throw OptionProblem("\(flag) needs a value") }
                try spec.apply(&options, value)
            }
        }
        if !options.dev, let flag = options.devOnlyGiven.first {
            throw OptionProblem("\(flag) is a development convenience: start with --dev to use it")
        }
        if options.appStoreRoot != nil && options.appStoreBundleId == nil {
            throw OptionProblem("--app-store-root needs --app-store-bundle-id: App Store data is checked to be this app's")
        }
        let push = [options.playPushJWKS, options.playPushAudience, options.playPushServiceAccount]
        if push.contains(where: { $0 != nil }) && push.contains(where: { $0 == nil }) {
            throw OptionProblem("--play-push-jwks, --play-push-audience and --play-push-service-account go together: a push token is checked for all three")
        }
        if options.stripeAPIKey != nil, options.publicURL == nil, !options.dev {
            throw OptionProblem("--stripe-api-key needs --public-url: Stripe sends a buyer back to the server's own address, never to one a request names")
        }
        let proven = !options.identitySecrets.isEmpty || options.identityJWKS != nil
        if proven != (options.identityAudience != nil) {
            throw OptionProblem("--identity-audience goes with --identity-secret or --identity-jwks: a token is checked to be for this server")
        }
        if !options.dev && options.database == nil && options.dataDirectory == nil {
            throw OptionProblem("--database is required without --dev (a file path, sqlite:PATH or postgres://...)")
        }
        return options
    }

    /// App key digests, comma-separated hex.
    mutating func appKeyDigests(_ list: String, _ flag: String) throws(OptionProblem) {
        for item in list.split(separator: ",") {
            guard let digest = Hex.decode(item.trimmingCharacters(in: .whitespaces), count: 32) else {
                throw OptionProblem("\(flag) needs 64 hex digits per key")
            }
            apiKeyDigests.append(digest)
        }
    }

    /// Operator keys, `ID:HEX:SCOPES` each; an id given twice is refused (audit records name keys by id).
    mutating func addOperatorKeys(_ entries: [String], _ origin: String) throws(OptionProblem) {
        for entry in entries {
            switch OperatorKey.parse(entry) {
            case .failure(let problem): throw OptionProblem("\(origin): \(problem.description)")
            case .success(let key):
                guard !operatorKeys.contains(where: { $0.id == key.id }) else {
                    throw OptionProblem("\(origin): operator key id '\(key.id)' is given twice")
                }
                operatorKeys.append(key)
            }
        }
    }

    static var usage: String {
        let lines = specs.map { spec in
            let left = "  \(spec.flag)\(spec.value.map { " \($0)" } ?? "")"
            return left.padding(toLength: max(left.count, 30), withPad: " ", startingAt: 0) + " \(spec.help) [\(spec.environment)]"
        }
        return "usage: paywire-server --bundle FILE --database URL [options]\n"
            + "       paywire-server --list-routes   (the API's routes, METHOD path a line)\n" + RenderCommand.usage + "\n" + SignBundleCommand.usage + "\n" + CertifyKeyCommand.usage + "\n"
            + lines.joined(separator: "\n")
    }
}

/// A configuration that cannot start the server; `help` asks for the usage.
struct OptionProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
    static let help = OptionProblem("")
    var isHelp: Bool { description.isEmpty }
}

extension Options {
    /// How far `--clock-offset-ms` moves the clock, either way: a century. `--certify-signing-key`
    /// takes the same flag, so a test on another date dates its certificate on the same clock.
    static let clockOffsetRange = -(100 * 366 * 86_400_000)...(100 * 366 * 86_400_000)

    private static func integer(_ text: String, _ flag: String, _ range: ClosedRange<Int>) throws(OptionProblem) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw OptionProblem("\(flag) needs a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// A fault flag of the older command line: the same object `POST /_dev/faults` takes.
    private static func fault(_ flag: String, _ key: String, _ value: String?, read: @escaping @Sendable (String) -> Any) -> Spec {
        Spec(flag: flag, value: value, help: "dev fault: \(key) (see --faults)") { options, text in
            options.devOnlyGiven.append(flag)
            options.faults[key] = read(text)
        }
    }

    static let specs: [Spec] = [
        Spec(flag: "--dev", value: nil, help: "development mode: /_dev/*, fault switches, authored profiles, the test store") { o, _ in o.dev = true },
        Spec(flag: "--host", value: "ADDR", help: "address to listen on (default 127.0.0.1)") { o, v in o.host = v },
        Spec(flag: "--port", value: "N", help: "port (default 8080; 0 picks a free one, the default with --dev)") { o, v throws(OptionProblem) in
            o.port = try integer(v, "--port", 0...65535)
        },
        Spec(flag: "--bundle", value: "FILE", help: "the placements and onboardings served (required)") { o, v in o.bundlePath = v },
        Spec(flag: "--products", value: "FILE", help: "the product catalog: a JSON array or a client config's store.products") { o, v in o.productsPath = v },
        Spec(flag: "--database", value: "URL", help: "postgres://user:pass@host:port/db, sqlite:PATH or PATH") { o, v in o.database = v },
        Spec(flag: "--data", value: "DIR", help: "SQLite in DIR/devserver.sqlite (as --database DIR/devserver.sqlite)") { o, v in o.dataDirectory = v },
        Spec(flag: "--db-pool-size", value: "N", help: "PostgreSQL connections per replica (default 8)") { o, v throws(OptionProblem) in
            o.databasePoolSize = try integer(v, "--db-pool-size", 1...256)
        },
        Spec(flag: "--app-key", value: "KEY", help: "an accepted app key (public: device routes only), hashed at start") { o, v in
            o.apiKeyDigests.append(APIKeys.digest(of: v))
        },
        Spec(flag: "--app-key-sha256", value: "HEX[,HEX]", help: "SHA-256 (hex) of accepted app keys (several while rotating)") { o, v throws(OptionProblem) in
            try o.appKeyDigests(v, "--app-key-sha256")
        },
        Spec(flag: "--api-key", value: "KEY", help: "the app key's older name (--app-key)") { o, v in
            o.apiKeyDigests.append(APIKeys.digest(of: v))
        },
        Spec(flag: "--api-key-sha256", value: "HEX[,HEX]", help: "the older name of --app-key-sha256") { o, v throws(OptionProblem) in
            try o.appKeyDigests(v, "--api-key-sha256")
        },
        Spec(flag: "--operator-key-sha256", value: "ID:HEX:SCOPES",
             help: "an operator key: its id, the SHA-256 (hex) of the key, its scopes (comma-separated: results:read, customers:read, customers:write, dashboard, notifications:write, development, audit:read); repeat to give several (a rotation)") { o, v throws(OptionProblem) in
            try o.addOperatorKeys([v], "--operator-key-sha256")
        },
        Spec(flag: "--operator-keys", value: "FILE", help: "operator keys, one ID:HEX:SCOPES a line (# comments); several while one is rotated out") { o, v throws(OptionProblem) in
            guard let text = try? String(contentsOfFile: v, encoding: .utf8) else { throw OptionProblem("--operator-keys: cannot read \(v)") }
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            try o.addOperatorKeys(lines.filter { !$0.isEmpty && !$0.hasPrefix("#") }, "--operator-keys \(v)")
        },
        Spec(flag: "--app-store-root", value: "FILE", help: "root certificate (PEM or DER) App Store notifications chain to") { o, v in o.appStoreRoot = v },
        Spec(flag: "--app-store-bundle-id", value: "ID", help: "the app's bundle id App Store signed data must name") { o, v in
            o.appStoreBundleId = v
        },
        Spec(flag: "--app-store-environments", value: "ENV[,ENV]",
             help: "App Store environments taken (default Production,Sandbox; also Xcode, LocalTesting)") { o, v throws(OptionProblem) in
            let names = v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !names.isEmpty, names.allSatisfy(AppStoreSigned.environmentNames.contains) else {
                throw OptionProblem("--app-store-environments takes \(AppStoreSigned.environmentNames.joined(separator: ", ")), separated by commas")
            }
            o.appStoreEnvironments = names
        },
        Spec(flag: "--app-store-unmarked-roots", value: nil,
             help: "trust chains without Apple's marker extensions (roots you made; never with Apple's root)") { o, _ in
            o.appStoreUnmarkedRoots = true
        },
        Spec(flag: "--app-store-refund-preference", value: "PREF",
             help: "answers to CONSUMPTION_REQUEST: grant, decline, no_preference or undeclared (the default)") { o, v throws(OptionProblem) in
            guard let code = Consumption.refundPreferences[v] else {
                throw OptionProblem("--app-store-refund-preference takes grant, decline, no_preference or undeclared")
            }
            o.appStoreRefundPreference = code
        },
        Spec(flag: "--play-push-jwks", value: "FILE",
             help: "JWK set (Google's certs) Play notification pushes' OIDC tokens are checked against; then no API key on that route") { o, v in
            o.playPushJWKS = v
        },
        Spec(flag: "--play-push-audience", value: "AUD", help: "the audience of the Play push subscription's tokens") { o, v in o.playPushAudience = v },
        Spec(flag: "--play-push-service-account", value: "EMAIL", help: "the service account the Play push subscription signs as") { o, v in
            o.playPushServiceAccount = v
        },
        Spec(flag: "--play-service-account", value: "FILE",
             help: "service account JSON key: after each RTDN the Play Developer API is asked for the purchase's state") { o, v in
            o.playServiceAccount = v
        },
        Spec(flag: "--play-api-base", value: "URL", help: "the Play Developer API (default https://androidpublisher.googleapis.com)") { o, v in
            o.playAPIBase = v
        },
        Spec(flag: "--play-api-timeout-ms", value: "N", help: "deadline of each Play API and token call (default 10000)") { o, v throws(OptionProblem) in
            o.playAPITimeoutMillis = try integer(v, "--play-api-timeout-ms", 100...60_000)
        },
        Spec(flag: "--test-signing-key", value: "KEY", help: "turns the test store on with this signing key") { o, v in o.signingKey = v },
        Spec(flag: "--offer-bundle-id", value: "ID", help: "the app's bundle id offer signatures cover") { o, v in o.offerBundleId = v },
        Spec(flag: "--offer-key-id", value: "ID", help: "the App Store Connect key id of the offer key") { o, v in o.offerKeyId = v },
        Spec(flag: "--offer-key", value: "FILE", help: "the offer signing key (PEM, P-256); --dev makes one at start") { o, v in o.offerKeyPath = v },
        Spec(flag: "--trust-host-stores", value: nil, help: "grant other stores' transactions unchecked") { o, _ in o.trustHostStores = true },
        Spec(flag: "--max-body-bytes", value: "N", help: "largest request body (default 1 MiB); larger: 413 from the head") { o, v throws(OptionProblem) in
            o.maxBodyBytes = try integer(v, "--max-body-bytes", 1024...(1 << 30))
        },
        Spec(flag: "--response-signing-key", value: "FILE[,FILE]",
             help: "Ed25519 key (PEM, PKCS#8) signing every answer that carries access; repeat to rotate, the first signs") {
            o, v throws(OptionProblem) in
            let paths = v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !paths.isEmpty else { throw OptionProblem("--response-signing-key needs a file") }
            o.responseSigningKeys += paths
        },
        Spec(flag: "--signing-key-certificate", value: "FILE",
             help: "a pinned root's certificate of a --response-signing-key (--certify-signing-key makes it); repeatable") { o, v in
            o.signingKeyCertificates.append(v)
        },
        Spec(flag: "--stripe-webhook-secret", value: "SECRET[,SECRET]",
             help: "Stripe webhook endpoint secret(s): repeat or separate by commas while rotating; never logged") { o, v throws(OptionProblem) in
            let secrets = v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !secrets.isEmpty else { throw OptionProblem("--stripe-webhook-secret needs a secret") }
            o.stripeWebhookSecrets += secrets
        },
        Spec(flag: "--stripe-api-key", value: "KEY", help: "Stripe's secret API key: the web paywall's checkout (off without; needs --public-url); never logged") {
            o, v throws(OptionProblem) in
            guard !v.isEmpty else { throw OptionProblem("--stripe-api-key needs a key") }
            o.stripeAPIKey = v
        },
        Spec(flag: "--stripe-api-base", value: "URL", help: "Stripe's API (default https://api.stripe.com; a stand-in in tests)") { o, v in
            o.stripeAPIBase = v
        },
        Spec(flag: "--stripe-api-timeout-ms", value: "N", help: "deadline of each Stripe API call (default 10000)") { o, v throws(OptionProblem) in
            o.stripeAPITimeoutMillis = try integer(v, "--stripe-api-timeout-ms", 100...60_000)
        },
        Spec(flag: "--public-url", value: "URL", help: "the server's public address, where Stripe sends a web paywall's buyer back: required with --stripe-api-key (with --dev: the request's Host when not given)") {
            o, v throws(OptionProblem) in
            guard v.hasPrefix("https://") || v.hasPrefix("http://"), let host = URLComponents(string: v)?.host, !host.isEmpty else {
                throw OptionProblem("--public-url must be an http:// or https:// address with a host")
            }
            o.publicURL = v.hasSuffix("/") ? String(v.dropLast()) : v
        },
        Spec(flag: "--redemption-ttl-seconds", value: "N", help: "how long a web purchase's redemption link redeems (default 604800, 7 days)") {
            o, v throws(OptionProblem) in
            o.redemptionTTLSeconds = try integer(v, "--redemption-ttl-seconds", 1...(366 * 24 * 3600))
        },
        Spec(flag: "--redemption-link-base", value: "URL", help: "where redemption links point, ?token= added (default paywire://redeem)") {
            o, v throws(OptionProblem) in
            // The link is drawn as a button on the web paywall: a scheme that runs code is refused.
            let scheme = v.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            guard v.contains("://"), !["javascript", "data", "vbscript", "file"].contains(scheme) else {
                throw OptionProblem("--redemption-link-base must be an app's link or a web address (scheme://...), not a \(scheme): URL")
            }
            o.redemptionLinkBase = v
        },
        Spec(flag: "--operator-session-ttl-seconds", value: "N",
             help: "how long an operator's dashboard session lasts after signing in (default 28800, 8 hours)") { o, v throws(OptionProblem) in
            o.dashboardSessions.ttlSeconds = try integer(v, "--operator-session-ttl-seconds", 1...(30 * 24 * 3600))
        },
        Spec(flag: "--rate-limit-address", value: "N",
             help: "requests a second per client address (bursts of 5 s worth), else 429 with Retry-After; off unless given") {
            o, v throws(OptionProblem) in
            o.rateLimitAddress = try integer(v, "--rate-limit-address", 1...1_000_000)
        },
        Spec(flag: "--rate-limit-operator-key", value: "N",
             help: "requests a second per operator key (bursts of 5 s worth), else 429 with Retry-After; off unless given") {
            o, v throws(OptionProblem) in
            o.rateLimitOperatorKey = try integer(v, "--rate-limit-operator-key", 1...1_000_000)
        },
        Spec(flag: "--identity-secret", value: "SECRET",
             help: "identify needs an identity_token (HS256 JWT) signed with this secret (32 bytes or more); repeat while rotating; never logged") {
            o, v in o.identitySecrets.append(v)
        },
        Spec(flag: "--identity-jwks", value: "FILE",
             help: "identify needs an identity_token (RS256 or ES256 JWT) signed by a key of this JWK set (the app backend's public keys)") {
            o, v in o.identityJWKS = v
        },
        Spec(flag: "--identity-audience", value: "AUD", help: "the aud an identity_token must name (with --identity-secret or --identity-jwks)") {
            o, v in o.identityAudience = v
        },
        Spec(flag: "--behind-https", value: nil,
             help: "browsers reach this server over https (a proxy ends TLS): the dashboard's cookies say Secure") { o, _ in
            o.dashboardSessions.secureCookies = true
        },
        Spec(flag: "--transfer-policy", value: "POLICY",
             help: "a purchase another profile holds, on a restore or an identity: transfer (moves it, the default) or keep") { o, v throws(OptionProblem) in
            guard let policy = TransferPolicy(rawValue: v) else { throw OptionProblem("--transfer-policy must be transfer or keep") }
            o.transferPolicy = policy
        },
        Spec(flag: "--max-connections", value: "N",
             help: "connections served at once (default: what the descriptor limit, ulimit -n, leaves room for); more are answered 503 with Retry-After") {
            o, v throws(OptionProblem) in
            o.maxConnections = try integer(v, "--max-connections", 1...1_000_000)
        },
        Spec(flag: "--max-connections-per-address", value: "N",
             help: "connections served at once from one client address (default 128; 0: no limit, as behind a proxy); more are answered 503") {
            o, v throws(OptionProblem) in
            o.maxConnectionsPerAddress = try integer(v, "--max-connections-per-address", 0...1_000_000)
        },
        Spec(flag: "--request-head-timeout-ms", value: "N",
             help: "a request's head must arrive within N ms of its first byte (default 15000), else 408 and the connection closes") {
            o, v throws(OptionProblem) in
            o.requestHeadTimeoutMillis = try integer(v, "--request-head-timeout-ms", 100...600_000)
        },
        Spec(flag: "--request-body-timeout-ms", value: "N",
             help: "a request's body must arrive within N ms of its head (default 60000), else the connection closes") {
            o, v throws(OptionProblem) in
            o.requestBodyTimeoutMillis = try integer(v, "--request-body-timeout-ms", 100...3_600_000)
        },
        Spec(flag: "--rate-limit-device", value: "N",
             help: "requests a second per device, that is per profile credential a request carries (bursts of 5 s worth), else 429 with Retry-After; off unless given") {
            o, v throws(OptionProblem) in
            o.rateLimitDevice = try integer(v, "--rate-limit-device", 1...1_000_000)
        },
        Spec(flag: "--new-credentials-per-address", value: "N",
             help: "new profile credentials (new profiles, new web visitors, identities handing a profile over) one client address is handed a minute, in bursts of N, else 429 with Retry-After; 0: no limit (default 60; off with --dev unless given)") {
            o, v throws(OptionProblem) in
            o.newCredentialsPerAddress = try integer(v, "--new-credentials-per-address", 0...1_000_000)
        },
        Spec(flag: "--operator-key-guesses", value: "N",
             help: "wrong operator keys one client address may send in 15 minutes, by the sign-in form or any operator route's Bearer, before it waits (default 10)") {
            o, v throws(OptionProblem) in
            o.operatorKeyGuesses = try integer(v, "--operator-key-guesses", 1...1_000_000)
        },
        Spec(flag: "--clock-offset-ms", value: "N",
             help: "tests: the server's clock runs N ms from the system's (negative: behind), to run a suite on another date; 0 unless given") {
            o, v throws(OptionProblem) in
            o.clockOffsetMillis = try integer(v, "--clock-offset-ms", Options.clockOffsetRange)
        },
        Spec(flag: "--log-level", value: "LEVEL", help: "trace, debug, info, notice, warning, error (default info)") { o, v throws(OptionProblem) in
            guard ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(v) else {
                throw OptionProblem("--log-level must be trace, debug, info, notice, warning, error or critical")
            }
            o.logLevel = v
        },
        Spec(flag: "--log-format", value: "FORMAT", help: "json (one object a line, the default) or text") { o, v throws(OptionProblem) in
            guard v == "json" || v == "text" else { throw OptionProblem("--log-format must be json or text") }
            o.logFormat = v
        },
        Spec(flag: "--profiles", value: "FILE", help: "dev: authored profiles (profile id -> profile)") { o, v in
            o.devOnlyGiven.append("--profiles")
            o.profilesPath = v
        },
        Spec(flag: "--faults", value: "JSON", help: "dev: fault switches, as POST /_dev/faults takes") { o, v throws(OptionProblem) in
            o.devOnlyGiven.append("--faults")
            guard let object = (try? JSONSerialization.jsonObject(with: Data(v.utf8))) as? [String: Any] else {
                throw OptionProblem("--faults needs a JSON object, as POST /_dev/faults takes")
            }
            o.faults.merge(object) { _, new in new }
        },
        fault("--latency-ms", "latency_ms", "N") { Int($0) ?? -1 },
        fault("--fail-status", "status", "CODE") { Int($0) ?? -1 },
        fault("--not-modified", "not_modified", nil) { _ in true },
        fault("--malformed", "malformed", nil) { _ in true },
        fault("--drop", "drop", nil) { _ in true },
    ]
}
