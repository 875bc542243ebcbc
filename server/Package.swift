// swift-tools-version:6.2
import PackageDescription

// paywire-server: the backend of api/openapi.yaml. HTTP on Hummingbird 2 (SwiftNIO) with plain
// routes; the records that cross are PaywireModel's types, read and written by the model as the
// device reads and writes them; the spec is the routes' test (tests/api); storage on SQLite
// (embedded, the default) or PostgreSQL. A package of its own, so no server
// framework or database driver ever enters libpaywire's dependency graph. `make devserver`
// builds it; build/bin/paywire-devserver runs it with --dev.
let package = Package(
    name: "paywire-server",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "paywire", path: ".."),
        // No optional traits (swift-configuration, full Foundation): less to build.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        // Prometheus /metrics through swift-metrics' API.
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        // Graceful shutdown on SIGTERM: the server and the database pool as services of one group.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        // The pieces of Hummingbird's own stack the server's HTTP head checks sit between.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // SQLite (Debian's libsqlite3-dev) for the embedded store: WAL, one writer, unique keys.
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        // PostgreSQL (to scale out: replicas share nothing but the database).
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        // HMAC-MD5 of test-store signatures, ES256 of offers and App Store notifications; RS256
        // (_CryptoExtras) of Google's OIDC tokens.
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "3.12.3"),
        // X.509 chain checks of App Store Server Notifications (the JWS header's x5c).
        .package(url: "https://github.com/apple/swift-certificates.git", exact: "1.21.1"),
    ],
    targets: [
        // libqrencode (Debian's libqrencode-dev), the QR code a web paywall's buyer scans with
        // the phone the app is on.
        .systemLibrary(name: "CQREncode", path: "Sources/CQREncode", pkgConfig: "libqrencode"),
        .executableTarget(
            name: "paywire-server",
            dependencies: [
                "ServerDomain",
                "ServerStore",
                .product(name: "PaywireModel", package: "paywire"),
                "PaywireWeb",
                "CQREncode",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RS256 of Pub/Sub push tokens and of the Play service account's assertion.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]),
        // The server's domain: its pure rules (signatures and tokens checked, store notifications
        // read, lifecycles, grants and profiles built, results counted) and the values they decide
        // on. No I/O and no server framework or database driver: the store, the routes and the
        // executable depend on it, never the other way, and the compiler holds that. What crosses
        // into the executable is `package`.
        .target(
            name: "ServerDomain",
            dependencies: [
                .product(name: "PaywireModel", package: "paywire"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RS256 (Google's OIDC tokens, the Play service account's assertion).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // App Store JWS chains (x5c) and the response signing key's certificates.
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Sources/ServerDomain"),
        // The server's storage: the `Storage` protocol and its two engines, SQLite and PostgreSQL,
        // reading and writing the domain's values. On the domain, the model and the drivers only:
        // a store file that names a route, a door or a page does not compile. The executable
        // opens one and passes it to the routes.
        .target(
            name: "ServerStore",
            dependencies: [
                "ServerDomain",
                .product(name: "PaywireModel", package: "paywire"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/ServerStore"),
        // The web paywall: a resolved builder configuration drawn as one HTML page (the web
        // checkout, the dashboard's preview, the docs gallery). Pure: no I/O, no Foundation.
        .target(
            name: "PaywireWeb",
            dependencies: [.product(name: "PaywireModel", package: "paywire")],
            path: "Sources/PaywireWeb"),
        // The server's pure rules (signatures, redemption tokens, Play's purchase states) on
        // their own, with vectors computed outside Swift; `make test-server-unit`.
        .testTarget(
            name: "ServerDomainTests",
            dependencies: ["ServerDomain", "ServerStore", "paywire-server", .product(name: "PaywireModel", package: "paywire")],
            path: "Tests/ServerDomainTests"),
        // The web paywall's page on its own: every section and plan style, escaping, the
        // palette's contrast; `swift test --filter PaywireWebTests`.
        .testTarget(
            name: "PaywireWebTests",
            dependencies: ["PaywireWeb", .product(name: "PaywireModel", package: "paywire")],
            path: "Tests/PaywireWebTests"),
    ]
)
