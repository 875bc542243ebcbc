import Foundation
import PaywireModel

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
            let (flag, inline) = split(argument)
            guard let value = inline ?? iterator.next() else { return fail("\(flag) needs a value\n\(usage)", status: 2) }
            switch flag {
            case "--sign-bundle": bundlePath = value
            case "--response-signing-key": keyPath = value
            default: return fail("--sign-bundle does not take '\(argument)'\n\(usage)", status: 2)
            }
        }
        guard !bundlePath.isEmpty, !keyPath.isEmpty else { return fail("--sign-bundle needs a file and --response-signing-key\n\(usage)", status: 2) }
        guard let bundle = FileManager.default.contents(atPath: bundlePath).map(Array.init) else { return fail("cannot read \(bundlePath)", status: 1) }
        guard let pem = FileManager.default.contents(atPath: keyPath).flatMap({ String(data: $0, encoding: .utf8) }) else {
            return fail("cannot read \(keyPath)", status: 1)
        }
        do {
            guard (try? JSONSerialization.jsonObject(with: Data(bundle))) is [String: Any] else {
                return fail("\(bundlePath) is not a JSON object", status: 1)
            }
            let signer = try ResponseSigner(pems: [(keyPath, pem)])
            let (keyId, signature) = try signer.documentSignature(trusted: nil, kind: DocumentSignature.bundleKind, id: "", revision: "",
                                                                 body: bundle)
            // A key id is hex digits and a signature base64: neither needs escaping.
            FileHandle.standardOutput.write(Data("{\"key_id\":\"\(keyId)\",\"signature\":\"\(signature)\"}\n".utf8))
            return 0
        } catch {
            return fail("\(error)", status: 1)
        }
    }

    private static func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return status
    }

    /// `--flag=value` or `--flag`.
    private static func split(_ argument: String) -> (flag: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
