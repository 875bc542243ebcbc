import Foundation
import PaywireModel
import PaywireWire
import ServerDomain

/// `paywire-server --sign-bundle BUNDLE --response-signing-key KEY.pem`: the operator's
/// signature of a fallback bundle file (`DocumentSignature`, kind `fallback_bundle`, over the
/// file's exact bytes), printed as the `{key_id, signature}` an app puts beside the file in its
/// config (`fallback.signature`). The file is checked to be a JSON object first; the key never
/// leaves `ResponseSigner`, and nothing but the key's id and the signature is printed.
enum SignBundleCommand {
    /// The usage line `--help` adds.
    static let usage = """
               paywire-server --sign-bundle BUNDLE --response-signing-key KEY.pem
                                              (the bundle file's signature, config fallback.signature, JSON on stdout)
        """

    /// The exit status when `arguments` are this command (after doing it); nil when they are not.
    static func run(_ arguments: [String]) -> Int32? {
        guard let first = arguments.first, first == "--sign-bundle" || first.hasPrefix("--sign-bundle=") else { return nil }
        var bundlePath = "", keyPath = ""
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let (flag, inline) = Flags.split(argument)
            guard let value = inline ?? iterator.next() else { return Flags.fail("\(flag) needs a value\n\(usage)", status: 2) }
            switch flag {
            case "--sign-bundle": bundlePath = value
            case "--response-signing-key": keyPath = value
            default: return Flags.fail("--sign-bundle does not take '\(argument)'\n\(usage)", status: 2)
            }
        }
        guard !bundlePath.isEmpty, !keyPath.isEmpty else { return Flags.fail("--sign-bundle needs a file and --response-signing-key\n\(usage)", status: 2) }
        guard let bundle = FileManager.default.contents(atPath: bundlePath).map(Array.init) else { return Flags.fail("cannot read \(bundlePath)", status: 1) }
        guard let pem = Flags.text(ofFile: keyPath) else { return Flags.fail("cannot read \(keyPath)", status: 1) }
        do {
            guard (try? JSONValue(parsing: bundle))?.isObject == true else {
                return Flags.fail("\(bundlePath) is not a JSON object", status: 1)
            }
            let signer = try ResponseSigner(pems: [(keyPath, pem)])
            let (keyId, signature) = try signer.documentSignature(trusted: nil, kind: DocumentSignature.bundleKind, id: "", revision: "",
                                                                 body: bundle)
            // A key id is hex digits and a signature base64: neither needs escaping.
            FileHandle.standardOutput.write(Data("{\"key_id\":\"\(keyId)\",\"signature\":\"\(signature)\"}\n".utf8))
            return 0
        } catch {
            return Flags.fail("\(error)", status: 1)
        }
    }
}
