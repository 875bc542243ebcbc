// swift-tools-version:6.0
import PackageDescription

// paywire-devserver: serves a fallback bundle over the backend API (api/openapi.yaml) on
// loopback, with fault switches, for demos and integration tests. A package of its own so the
// server framework never enters libpaywire's dependency graph.
let package = Package(
    name: "paywire-devserver",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "paywire", path: "../.."),
        // A small HTTP server on BSD sockets and Swift concurrency (no SwiftNIO): builds in
        // seconds, which keeps `make test` short.
        .package(url: "https://github.com/swhitty/FlyingFox.git", from: "0.27.1"),
        // SQLite (Debian's libsqlite3-dev) for the stored events, purchases and grants: durable
        // with --data, deduplicated by unique keys, WAL so reads never wait for the writer.
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        // HMAC-MD5 of test-store signatures, checked by a well-kept implementation rather than
        // the core's own (which it thereby cross-checks).
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "3.12.3"),
        // X.509 chain checks of App Store Server Notifications (the JWS header's x5c against
        // --app-store-root): a maintained verifier instead of certificate parsing of our own.
        .package(url: "https://github.com/apple/swift-certificates.git", exact: "1.21.1"),
    ],
    targets: [
        .executableTarget(
            name: "paywire-devserver",
            dependencies: [
                .product(name: "PaywireModel", package: "paywire"),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]),
    ]
)
