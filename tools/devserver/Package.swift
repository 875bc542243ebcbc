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
    ],
    targets: [
        .executableTarget(
            name: "paywire-devserver",
            dependencies: [
                .product(name: "PaywireCore", package: "paywire"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]),
    ]
)
