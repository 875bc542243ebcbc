// swift-tools-version:6.0
import PackageDescription

// The linker script sits next to this file; the linker needs its absolute path.
let packageRoot = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "paywire",
    products: [
        // libpaywire.so: the C ABI in include/paywire.h, and nothing else exported.
        .library(name: "paywire", type: .dynamic, targets: ["Paywire"]),
        // The wire and the model: what the backend shares with the device (server/).
        .library(name: "PaywireModel", targets: ["PaywireWire", "PaywireModel", "PaywireServing"]),
    ],
    targets: [
        // The wire: JSON value, parser and writer, envelopes, error codes, dates, events. Pure:
        // no C types, no Foundation, no dependencies.
        .target(name: "PaywireWire"),
        // The model: value types and the rules the backend shares with the device (grants,
        // their JSON and ranking, product types, bundles, placements, products, the locale chain).
        .target(name: "PaywireModel", dependencies: ["PaywireWire"]),
        // What only the server does with the model's rules (a web visitor's paywall, chosen and
        // resolved as a device's is): a module of its own, so libpaywire never links it.
        .target(name: "PaywireServing", dependencies: ["PaywireWire", "PaywireModel"]),
        // The core: the parts of a client and the composition root. Pure: I/O through its ports.
        .target(name: "PaywireCore", dependencies: ["PaywireWire", "PaywireModel"]),
        // The system SQLite, for the outbox's durable queue (Debian: libsqlite3-dev).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libcurl for the built-in HTTP transport, dlopened on first use: curl's header
        // (libcurl4-openssl-dev) at build time, no libcurl in the library's NEEDED list.
        .target(name: "CCurl"),
        // The system's libcrypto (OpenSSL) for response verification's Ed25519 checks, dlopened on
        // first use like libcurl: no OpenSSL header to build, no libcrypto in the NEEDED list.
        .target(name: "CCrypto"),
        // The POSIX headers the boundary uses, as one C module (no Glibc overlay, which Embedded
        // Swift lacks), with errno read and open(2) called through two non-variadic C functions.
        .target(name: "CPosix"),
        // The C boundary: @_cdecl exports, handle table, event delivery, the HTTP adapter.
        .target(
            name: "Paywire",
            dependencies: ["PaywireWire", "PaywireModel", "PaywireCore", "CSQLite", "CCurl", "CCrypto", "CPosix"],
            exclude: ["exports.map"],
            linkerSettings: [
                .unsafeFlags([
                    "-Xlinker", "--version-script=\(packageRoot)/Sources/Paywire/exports.map",
                    "-Xlinker", "-soname", "-Xlinker", "libpaywire.so.1",
                    // lld leaves localized symbols out of .dynsym (gold keeps them as LOCAL entries).
                    "-use-ld=lld",
                    // dlclose never unmaps the library: its worker threads outlive the last
                    // client by their idle linger, and the static Swift runtime cannot be torn
                    // down (tests/unload shows the crash without it).
                    "-Xlinker", "-z", "-Xlinker", "nodelete",
                ]),
                // Release: every symbol resolved at link time, so a stray direct curl_* call (or
                // any other undefined symbol) fails the build, not the host at load time. Not in
                // debug, where sanitizer runtimes resolve their symbols from the executable.
                .unsafeFlags(["-Xlinker", "-z", "-Xlinker", "defs"], .when(configuration: .release)),
            ]),
        // Unit tests of the pure layers, under the one tests root.
        .testTarget(name: "PaywireCoreTests", dependencies: ["PaywireWire", "PaywireModel", "PaywireCore", "PaywireServing"], path: "tests/unit"),
    ]
)
