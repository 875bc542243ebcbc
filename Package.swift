// swift-tools-version:6.0
import PackageDescription

// The linker script sits next to this file; the linker needs its absolute path.
let packageRoot = String(#filePath.dropLast("/Package.swift".count))

// The built-in HTTP client links libcurl. A host that always carries requests itself (a mobile
// SDK with transport.type host) builds with PAYWIRE_NO_BUILTIN_HTTP=1 and gets a library with
// no libcurl at all; transport.type http is then refused with a clear error.
let builtInHTTP = Context.environment["PAYWIRE_NO_BUILTIN_HTTP"] == nil

let package = Package(
    name: "paywire",
    products: [
        // libpaywire.so: the C ABI in include/paywire.h, and nothing else exported.
        .library(name: "paywire", type: .dynamic, targets: ["Paywire"]),
        // The pure domain, for tools built on the same rules (tools/devserver).
        .library(name: "PaywireCore", targets: ["PaywireCore"]),
    ],
    targets: [
        // Pure domain: no C types, no dependencies beyond the standard library.
        .target(name: "PaywireCore"),
        // The system SQLite, for the outbox's durable queue (Debian: libsqlite3-dev).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libcurl, for the built-in HTTP transport (Debian: libcurl4-openssl-dev).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The C boundary: @_cdecl exports, handle table, event delivery, the HTTP adapter.
        .target(
            name: "Paywire",
            dependencies: ["PaywireCore", "CSQLite"] + (builtInHTTP ? ["CCurl"] : []),
            exclude: ["exports.map"],
            swiftSettings: builtInHTTP ? [.define("PAYWIRE_BUILTIN_HTTP")] : [],
            linkerSettings: [
                .unsafeFlags([
                    "-Xlinker", "--version-script=\(packageRoot)/Sources/Paywire/exports.map",
                    "-Xlinker", "-soname", "-Xlinker", "libpaywire.so.1",
                    // lld leaves localized symbols out of .dynsym (gold keeps them as LOCAL entries).
                    "-use-ld=lld",
                ]),
            ]),
        .testTarget(name: "PaywireCoreTests", dependencies: ["PaywireCore"]),
    ]
)
