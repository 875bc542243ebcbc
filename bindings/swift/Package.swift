// swift-tools-version:6.0
// PaywireKit: Paywire for Swift, on the same C ABI as every other binding (include/paywire.h).
// The library is opened at run time (dlopen), never linked, and PaywireCore is never imported:
// the conformance kit proves this binding as it proves the others.
import PackageDescription

let package = Package(
    name: "PaywireKit",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "PaywireKit", targets: ["PaywireKit"]),
        .executable(name: "paywire-swift-runner", targets: ["PaywireConformanceRunner"]),
        .executable(name: "PaywallDemo", targets: ["PaywallDemo"]),
    ],
    targets: [
        // include/paywire.h as a C module (a symbolic link to the header, never a copy).
        .target(name: "CPaywire", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "PaywireKit", dependencies: ["CPaywire"]),
        // The sixth conformance runner (tests/conformance/README.md).
        .executableTarget(name: "PaywireConformanceRunner", dependencies: ["PaywireKit"]),
        // A terminal app: a paywall driven through select, purchase and restore with the test store.
        .executableTarget(name: "PaywallDemo", dependencies: ["PaywireKit"], path: "Examples/PaywallDemo"),
        // The Swift code of README.md and docs/getting-started/swift.md, extracted by tools/docs.
        .executableTarget(name: "ReadmeExample", dependencies: ["PaywireKit"], path: "Examples/Docs/Readme"),
        .executableTarget(name: "GettingStartedExample", dependencies: ["PaywireKit"], path: "Examples/Docs/GettingStarted"),
        .testTarget(name: "PaywireKitTests", dependencies: ["PaywireKit"]),
    ],
    swiftLanguageModes: [.v6]
)
