import FlyingFox
import Foundation
import struct PaywireCore.ServableBundle

/// paywire-devserver --bundle FILE [--port N] [--profiles FILE] [--latency-ms N]
///                   [--fail-status CODE | --not-modified | --malformed | --drop]
///
/// Serves the bundle's placements and onboardings over the backend API on 127.0.0.1 (port 0,
/// the default, picks a free one) and prints one line, `listening on http://127.0.0.1:PORT`,
/// once it accepts connections. Loopback only: this is a development tool, not a backend.
let usage = """
    usage: paywire-devserver --bundle FILE [--port N] [--profiles FILE] [--latency-ms N]
                             [--fail-status CODE | --not-modified | --malformed | --drop]
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("paywire-devserver: \(message)\n".utf8))
    exit(2)
}

var bundlePath: String?
var profilesPath: String?
var port: UInt16 = 0
var faultFlags: [String: Any] = [:]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    func value() -> String {
        guard let value = arguments.next() else { fail("\(argument) needs a value\n\(usage)") }
        return value
    }
    switch argument {
    case "--bundle": bundlePath = value()
    case "--profiles": profilesPath = value()
    case "--port":
        guard let parsed = UInt16(value()) else { fail("--port needs 0...65535") }
        port = parsed
    case "--latency-ms": faultFlags["latency_ms"] = Int(value()) ?? -1
    case "--fail-status": faultFlags["status"] = Int(value()) ?? -1
    case "--not-modified": faultFlags["not_modified"] = true
    case "--malformed": faultFlags["malformed"] = true
    case "--drop": faultFlags["drop"] = true
    case "--help", "-h":
        print(usage)
        exit(0)
    default: fail("unknown argument '\(argument)'\n\(usage)")
    }
}

guard let bundlePath else { fail("--bundle is required\n\(usage)") }
guard let bundleData = FileManager.default.contents(atPath: bundlePath) else { fail("cannot read \(bundlePath)") }
let bundle: ServableBundle
do {
    bundle = try ServableBundle.load(Array(bundleData))
} catch {
    fail("\(bundlePath): \(error.message)")
}
var profiles: [String: Data] = [:]
if let profilesPath {
    guard let data = FileManager.default.contents(atPath: profilesPath),
          let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
        fail("\(profilesPath) must be a JSON object of profile id -> profile")
    }
    for (id, profile) in object {
        guard let encoded = try? JSONSerialization.data(withJSONObject: profile) else { fail("profile '\(id)' is not an object") }
        profiles[id] = encoded
    }
}
let faults: Faults
do {
    faults = try Faults(json: try JSONSerialization.data(withJSONObject: faultFlags))
} catch {
    fail("\(error)")
}

let address: sockaddr_in
do {
    address = try .inet(ip4: "127.0.0.1", port: port)
} catch {
    fail("cannot bind 127.0.0.1:\(port): \(error)")
}
let server = HTTPServer(address: address, timeout: 600, logger: .disabled,
                        handler: Routes(bundle: bundle, state: DevState(faults: faults, profiles: profiles)))
let serving = Task { try await server.run() }
try await server.waitUntilListening()
guard case .ip4(let host, let boundPort)? = await server.listeningAddress else { fail("no listening address") }
FileHandle.standardOutput.write(Data(
    "listening on http://\(host):\(boundPort) (\(bundle.placements.count) placements, \(bundle.onboardings.count) onboardings)\n".utf8))
try await serving.value
