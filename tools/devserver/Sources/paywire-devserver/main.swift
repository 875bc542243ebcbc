import FlyingFox
import FlyingSocks
import Foundation
// Scoped: FlyingFox has a JSONValue of its own.
import enum PaywireWire.JSONValue
import struct PaywireModel.ServableBundle
import struct PaywireModel.StoreProduct
import struct PaywireModel.Experiment

/// paywire-devserver: the backend API of api/openapi.yaml on 127.0.0.1 for demos and tests.
/// It serves a bundle's placements, stores events and store transactions (in memory, or in
/// SQLite under --data), grants access, computes experiment results, and fails on purpose
/// when told to. It prints one line, `listening on http://127.0.0.1:PORT`, once it accepts
/// connections (port 0, the default, picks a free one). Loopback only: a development tool.
let options = Options.parse(Array(CommandLine.arguments.dropFirst()))

func contents(_ path: String, _ what: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(what) \(path)") }
    return Array(data)
}

guard let bundlePath = options.bundlePath else { fail("--bundle is required\n\(Options.usage)") }
let bundleBytes = contents(bundlePath, "the bundle")
let bundle: ServableBundle
let experiments: [String: [Experiment]]
do {
    bundle = try ServableBundle.load(bundleBytes)
    experiments = try Experiment.all(inBundle: bundleBytes)
} catch {
    fail("\(bundlePath): \(error.message)")
}
var products: [String: StoreProduct] = [:]
if let path = options.productsPath {
    do {
        for product in try StoreProduct.catalog(contents(path, "the products file")) { products[product.vendorProductId] = product }
    } catch {
        fail("\(path): \(error.message)")
    }
}
var profiles: [String: JSONValue] = [:]
if let path = options.profilesPath {
    guard case .object(let object)? = try? JSONValue(parsing: contents(path, "the profiles file")) else {
        fail("\(path) must be a JSON object of profile id -> profile")
    }
    for (id, profile) in object.members {
        guard profile.isObject else { fail("profile '\(id)' is not an object") }
        profiles[id] = profile
    }
}
let faults: Faults
do {
    faults = try Faults(json: Array(try JSONSerialization.data(withJSONObject: options.faults)))
} catch {
    fail("\(error)")
}
let store: Store
do {
    store = try Store(directory: options.dataDirectory)
} catch {
    fail("cannot open the store\(options.dataDirectory.map { " in \($0)" } ?? ""): \(error)")
}

let appStore: JWSVerifier
do {
    appStore = try JWSVerifier(rootFile: options.appStoreRoot)
} catch {
    fail("--app-store-root \(options.appStoreRoot ?? ""): \((error as? SignedProblem)?.message ?? "not a PEM or DER certificate: \(error)")")
}
let setup = ServerSetup(bundle: bundle, experiments: experiments, products: products,
                        signature: TestStoreSignature(key: options.signingKey),
                        offers: OfferSigner(bundleId: options.offerBundleId, keyId: options.offerKeyId), trustHostStores: options.trustHostStores,
                        apiKey: options.apiKey, appStore: appStore, state: DevState(faults: faults, profiles: profiles), store: store)
let listening: Socket
let boundPort: UInt16
do {
    listening = try Socket(domain: AF_INET)
    try listening.setValue(true, for: .localAddressReuse)
    try listening.bind(to: sockaddr_in.inet(ip4: "127.0.0.1", port: options.port))
    try listening.listen()
    guard case .ip4(_, let port) = try listening.sockname() else { fail("no listening address") }
    boundPort = port
} catch {
    fail("cannot listen on 127.0.0.1:\(options.port): \(error)")
}
let loop = HTTPLoop(handler: Routes(setup: setup), maxBodyBytes: options.maxBodyBytes)
let serving = Task { try await loop.run(listening: listening) }
FileHandle.standardOutput.write(Data(
    "listening on http://127.0.0.1:\(boundPort) (\(bundle.placements.count) placements, \(bundle.onboardings.count) onboardings, \(products.count) products\(options.dataDirectory.map { ", data in \($0)" } ?? ""))\n".utf8))
try await serving.value
