import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServerStore

/// paywire-server: the backend of api/openapi.yaml. It reads its configuration, builds the
/// parts, and serves until SIGTERM or SIGINT, finishing the requests in flight. It prints one
/// line, `listening on http://HOST:PORT (...)`, once it accepts connections.
// Swift concurrency's jobs run on NIO's event loop threads, where the connections' I/O is: a
// request no longer hops between NIO's threads and the concurrency pool on its way.
_ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()

// The API's routes, `METHOD path` a line, for the test that holds them to api/openapi.yaml.
if CommandLine.arguments.dropFirst().first == "--list-routes" {
    print(APIRoutes.listing)
    exit(0)
}
// The offline commands (a placement's page drawn from files, the builder's names): print, exit.
if let status = RenderCommand.run(Array(CommandLine.arguments.dropFirst())) {
    exit(status)
}
// A root's certificate of a signing key (--signing-key-certificate): print, exit.
if let status = CertifyKeyCommand.run(Array(CommandLine.arguments.dropFirst()), now: Int(Date().timeIntervalSince1970 * 1000)) {
    exit(status)
}
// A fallback bundle file's signature (config fallback.signature): print, exit.
if let status = SignBundleCommand.run(Array(CommandLine.arguments.dropFirst())) {
    exit(status)
}

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    if error.isHelp {
        print(Options.usage)
        exit(0)
    }
    fail("\(error)\n\(Options.usage)")
}
let clock = SystemClock(offsetMillis: options.clockOffsetMillis)
let logger = ServerLog.bootstrap(level: options.logLevel, format: options.logFormat, clock: clock)
if options.clockOffsetMillis != 0 {
    logger.warning("the clock is moved for a test", metadata: ["clock_offset_ms": "\(options.clockOffsetMillis)"])
}
let server: ServerParts
do {
    server = try await ServerParts.build(options, logger: logger, clock: clock, random: SystemRandom())
} catch {
    fail("\(error)")
}
do {
    try await server.run()
} catch let problem as StartProblem {
    fail(problem.description)
} catch {
    logger.critical("the server stopped", metadata: ["error": "\(StorageProblem.describe(error))"])
    exit(1)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("paywire-server: \(message)\n".utf8))
    exit(2)
}
