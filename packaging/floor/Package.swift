// swift-tools-version:6.0
import PackageDescription

// The size floor (`make size`): a library with one trivial @_cdecl export, linked like
// libpaywire (static Swift runtime, lld, a version script that exports it alone) and built with
// the same flags from the Makefile. What libpaywire weighs above it is Paywire's own code.
let packageRoot = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "paywire-floor",
    products: [.library(name: "paywirefloor", type: .dynamic, targets: ["PaywireFloor"])],
    targets: [
        .target(
            name: "PaywireFloor",
            exclude: ["exports.map"],
            linkerSettings: [
                .unsafeFlags([
                    "-Xlinker", "--version-script=\(packageRoot)/Sources/PaywireFloor/exports.map",
                    "-use-ld=lld",
                ]),
            ]),
    ]
)
