import Foundation

/// The command line. Faults given by flags are the same object `POST /_dev/faults` takes.
struct Options {
    static let usage = """
        usage: paywire-devserver --bundle FILE [--port N] [--profiles FILE] [--products FILE] [--data DIR]
                                 [--api-key KEY] [--test-signing-key KEY] [--offer-bundle-id ID] [--offer-key-id ID] [--trust-host-stores] [--max-body-bytes N]
                                 [--app-store-root FILE]
                                 [--faults JSON] [--latency-ms N] [--fail-status CODE | --not-modified | --malformed | --drop]
        """

    var bundlePath: String?
    var profilesPath: String?
    var productsPath: String?
    var dataDirectory: String?
    var apiKey: String?
    /// The root certificate (PEM or DER) App Store notifications are checked against.
    var appStoreRoot: String?
    var signingKey = TestStoreSignature.defaultKey
    /// The app's bundle id and key id offer signatures cover (the key itself is made at start).
    var offerBundleId = "dev.paywire.app"
    var offerKeyId = "PAYWIRETEST1"
    var trustHostStores = false
    var maxBodyBytes = 1 << 20
    var port: UInt16 = 0
    var faults: [String: Any] = [:]

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            func value() -> String {
                guard let value = iterator.next() else { fail("\(argument) needs a value\n\(usage)") }
                return value
            }
            switch argument {
            case "--bundle": options.bundlePath = value()
            case "--profiles": options.profilesPath = value()
            case "--products": options.productsPath = value()
            case "--data": options.dataDirectory = value()
            case "--api-key": options.apiKey = value()
            case "--app-store-root": options.appStoreRoot = value()
            case "--test-signing-key": options.signingKey = value()
            case "--offer-bundle-id": options.offerBundleId = value()
            case "--offer-key-id": options.offerKeyId = value()
            case "--trust-host-stores": options.trustHostStores = true
            case "--max-body-bytes":
                guard let bytes = Int(value()), bytes >= 1024 else { fail("--max-body-bytes needs a number >= 1024") }
                options.maxBodyBytes = bytes
            case "--port":
                guard let parsed = UInt16(value()) else { fail("--port needs 0...65535") }
                options.port = parsed
            case "--faults":
                guard let object = (try? JSONSerialization.jsonObject(with: Data(value().utf8))) as? [String: Any] else {
                    fail("--faults needs a JSON object, as POST /_dev/faults takes")
                }
                options.faults.merge(object) { _, new in new }
            case "--latency-ms": options.faults["latency_ms"] = Int(value()) ?? -1
            case "--fail-status": options.faults["status"] = Int(value()) ?? -1
            case "--not-modified": options.faults["not_modified"] = true
            case "--malformed": options.faults["malformed"] = true
            case "--drop": options.faults["drop"] = true
            case "--help", "-h":
                print(usage)
                exit(0)
            default: fail("unknown argument '\(argument)'\n\(usage)")
            }
        }
        return options
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("paywire-devserver: \(message)\n".utf8))
    exit(2)
}
